import { signToken, verifyToken } from './signed-token';

/** One token per contact, bound to its project; it never expires (links in old mail keep working). */
export const recipientToken = (secret: string, projectId: string, contactId: string): string => signToken(secret, 'recipient', [projectId, contactId]);

/** A contact's link to leave one topic (a campaign's List-Unsubscribe); it never expires either. */
export const topicToken = (secret: string, projectId: string, contactId: string, topicId: string): string => signToken(secret, 'topic', [projectId, contactId, topicId]);

export function readTopicToken(secret: string, token: string): { projectId: string; contactId: string; topicId: string } | null {
  const parts = verifyToken(secret, 'topic', token, 3);
  return parts ? { projectId: parts[0], contactId: parts[1], topicId: parts[2] } : null;
}

export function readRecipientToken(secret: string, token: string): { projectId: string; contactId: string } | null {
  const parts = verifyToken(secret, 'recipient', token, 2);
  return parts ? { projectId: parts[0], contactId: parts[1] } : null;
}
