/**
 * The slug of a name (segments' event names, topics), docs/decisions.md#events: lowercase, trim, drop characters other than ASCII word characters, spaces and
 * hyphens, runs of spaces to one hyphen, collapse hyphens, trim hyphens ("VIP Customers" → `vip-customers`).
 */
export function slugOf(name: string): string {
  return name
    .toLowerCase()
    .trim()
    .replace(/[^\w -]/g, '')
    .replace(/ +/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
}

