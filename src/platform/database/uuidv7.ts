import { randomBytes } from 'node:crypto';

/**
 * A UUIDv7 (RFC 9562): the Unix millisecond first (48 bits), then version 7, the variant and 74
 * random bits. Ids of the history tables are made so (here, or by the database's `uuidv7()`), so
 * an id tells the month partition its row lives in (`uuidv7Time`).
 */
export function uuidv7(now: number = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The creation millisecond of a UUIDv7; null for any other version (the random ids of rows older than the partitioning). */
export function uuidv7Time(id: string): number | null {
  if (id.length !== 36 || id[14] !== '7') return null;
  const ms = Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
  return Number.isFinite(ms) ? ms : null;
}
