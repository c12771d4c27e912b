/**
 * The one way the dashboard writes a contact data key in Liquid (docs/dashboard.md#data-keys-in-templates):
 * a plain identifier as `{{firstName}}`; any other key (`first name`, `plan-tier`, `2fa`) through the
 * `data` object the renderer adds, `{{data["first name"]}}`. `{{first name}}` renders nothing.
 * The server's renderer spec (template-renderer.spec.ts) holds the renderer to both forms.
 */
const PLAIN_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function isPlainKey(key: string): boolean {
  return PLAIN_IDENTIFIER.test(key);
}

/** The Liquid output tag for a data key, e.g. `{{firstName}}` or `{{data["first name"]}}`. */
export function liquidVariable(key: string): string {
  if (isPlainKey(key)) return `{{${key}}}`;
  const quoted = key.includes('"') && !key.includes("'") ? `'${key}'` : `"${key}"`;
  return `{{data[${quoted}]}}`;
}

/** The same sentence wherever the dashboard explains how to use a key. */
export const KEY_SYNTAX_HINT = 'Use a key in Liquid as {{firstName}}; a key with spaces or dashes as {{data["first name"]}}.';
