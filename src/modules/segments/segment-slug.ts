/**
 * docs/decisions.md#events: lowercase, trim, drop characters other than ASCII word characters, spaces and
 * hyphens, runs of spaces to one hyphen, collapse hyphens, trim hyphens ("VIP Customers" → `vip-customers`).
 */
export function segmentSlug(name: string): string {
  return name
    .toLowerCase()
    .trim()
    .replace(/[^\w -]/g, '')
    .replace(/ +/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The emitted event names of a segment (`segment.<slug>.entry` / `.exit`); a name with no slug characters uses the id. */
export const segmentEventNames = (name: string, id: string) => {
  const slug = segmentSlug(name) || id;
  return { entry: `segment.${slug}.entry`, exit: `segment.${slug}.exit` };
};
