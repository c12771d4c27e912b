/** The spec's rule: 1 to 255 printable ASCII characters (space through tilde). */
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

export const isValidIdempotencyKey = (value: string): boolean => KEY_PATTERN.test(value);
