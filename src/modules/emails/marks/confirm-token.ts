import { signToken, verifyToken } from './signed-token';

/** A double opt-in link: the contact, bound to its project, valid until `expiresAt` (its own purpose: a recipient token never passes). */
export const confirmToken = (secret: string, projectId: string, contactId: string, expiresAt: Date): string =>
  signToken(secret, 'confirm', [projectId, contactId, String(Math.floor(expiresAt.getTime() / 1000))]);

/** The ids of a valid, unexpired link; `expired` for a genuine link past its time; null for anything forged or malformed. */
export function readConfirmToken(secret: string, token: string, now = Date.now()): { projectId: string; contactId: string } | 'expired' | null {
  const parts = verifyToken(secret, 'confirm', token, 3);
  if (!parts) return null;
  const expires = Number(parts[2]);
  if (!Number.isSafeInteger(expires)) return null;
  return expires * 1000 <= now ? 'expired' : { projectId: parts[0], contactId: parts[1] };
}
