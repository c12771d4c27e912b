import { signToken, verifyToken } from './signed-token';

/** One token per contact, bound to its project; it never expires (links in old mail keep working). */
export const recipientToken = (secret: string, projectId: string, contactId: string): string => signToken(secret, 'recipient', [projectId, contactId]);

export function readRecipientToken(secret: string, token: string): { projectId: string; contactId: string } | null {
  const parts = verifyToken(secret, 'recipient', token, 2);
  return parts ? { projectId: parts[0], contactId: parts[1] } : null;
}
