/**
 * Header blocks (RFC 5322 fields separated by blank lines), the shape of a `message/delivery-status`
 * body (RFC 3464: a per-message block, then one per recipient) and of a `message/feedback-report`
 * body (RFC 5965: one block). Field names are lower-cased, folded lines unfolded, and a repeated
 * field keeps every value in order.
 */
export type HeaderBlock = Map<string, string[]>;

export function parseHeaderBlocks(text: string): HeaderBlock[] {
  const blocks: HeaderBlock[] = [];
  let block: HeaderBlock | null = null;
  let last: { name: string; index: number } | null = null;
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (line.trim() === '') {
      if (block && block.size > 0) blocks.push(block);
      block = null;
      last = null;
      continue;
    }
    if (/^[ \t]/.test(line)) {
      // A folded continuation of the previous field (RFC 5322 §2.2.3).
      if (block && last) {
        const values = block.get(last.name)!;
        values[last.index] = `${values[last.index]} ${line.trim()}`;
      }
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    block ??= new Map();
    const values = block.get(name) ?? [];
    values.push(line.slice(colon + 1).trim());
    block.set(name, values);
    last = { name, index: values.length - 1 };
  }
  if (block && block.size > 0) blocks.push(block);
  return blocks;
}

/** The first value of a field, or null. */
export const field = (block: HeaderBlock | undefined, name: string): string | null => block?.get(name)?.[0] ?? null;

/** `rfc822; user@example.com` → `user@example.com` (lower-cased, without angle brackets); other types as given. */
export function typedAddress(value: string | null): string | null {
  if (!value) return null;
  const semicolon = value.indexOf(';');
  const address = (semicolon >= 0 ? value.slice(semicolon + 1) : value).trim().replace(/^<|>$/g, '');
  return address ? address.toLowerCase() : null;
}
