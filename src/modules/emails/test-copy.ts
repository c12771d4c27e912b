import type { EmailType } from './entities/email.entity';

/**
 * Test copies (a template's or campaign's "send a test as <contact>"): the one rule that keeps
 * them out of every count. A test copy is a project email with no contact: it emits no events
 * (so no activity, analytics, webhook or contact timeline entry: `EmailEvents.payloads`), has no
 * campaign id (no campaign statistic) and consumes no billing usage (only `/v1/send` consumes).
 * Its stored `variables` are those of the contact it renders as, with that contact's `id` and
 * `email` (the pipeline keeps them instead of the test address).
 */
export const isTestCopy = (email: { projectId: string | null; contactId: string | null }): boolean => email.projectId !== null && email.contactId === null;

/** The contact a test copy renders as (its stored `id`/`email` variables), or null. */
export function testCopyContact(variables: Record<string, unknown> | null): { id: string; email: string } | null {
  const id = variables?.id;
  const email = variables?.email;
  return typeof id === 'string' && typeof email === 'string' ? { id, email } : null;
}

/**
 * What a test copy's unsubscribe and preference links (footer, `{{unsubscribeUrl}}`,
 * `{{manageUrl}}`, List-Unsubscribe) are signed for instead of the contact: not a contact id, so
 * the pages answer their friendly invalid-link page and a click, or a mailbox's one-click POST,
 * changes nothing for the contact the copy renders as.
 */
export const TEST_COPY_LINK_ID = 'test-copy';

/** A test copy's subject prefix and header; its type stays the real one (MARKETING gets its footer). */
export const TEST_SUBJECT_PREFIX = '[Test] ';
export const TEST_HEADER = 'X-Test';

export interface TestCopyOf {
  type: EmailType;
  fromAddress: string;
}
