import { AppError, conflict, notFound, validationError } from '../../platform/http/app-error';

export const contactNotFound = () => notFound('Contact');
export const contactEmailTaken = (email: string) =>
  conflict('Another contact in this project already has this email', { details: { email } });
export const fieldNotFound = (field: string) => new AppError(404, 'NOT_FOUND', `Field ${field} not found`);
export const standardFieldNotDeletable = (field: string) =>
  new AppError(400, 'BAD_REQUEST', `${field} is a standard field and cannot be deleted`, {
    suggestion: 'Only custom fields (data.<key>) can be deleted.',
  });

/** PostgreSQL's jsonb cannot hold the \u0000 escape; refused rather than a 500. */
export const dataNotStorable = () =>
  validationError([{ field: 'data', message: 'data must not contain the \\u0000 character', code: 'invalid_string' }]);

/** SQLSTATE 22P05 (untranslatable character: \u0000 in jsonb). */
export const isUnstorableText = (error: unknown): boolean => (error as { code?: string })?.code === '22P05';

export const contactStillReferenced = (table?: string) =>
  conflict('The contact is still referenced and cannot be deleted', { details: table ? { referencedBy: table } : undefined });

export const alreadySubscribed = () =>
  conflict('The contact is already subscribed: there is nothing to confirm', { suggestion: 'Unsubscribe it first, or create it with doubleOptIn: true.' });
/** At most one confirmation email per 10 minutes: 429 with `Retry-After` as a header and in `details`. */
export const confirmationThrottled = (waitSeconds: number) =>
  new AppError(429, 'RATE_LIMIT_EXCEEDED', 'A confirmation email left less than 10 minutes ago', {
    headers: { 'Retry-After': String(waitSeconds) },
    details: { retryAfter: waitSeconds },
    suggestion: 'Wait for the number of seconds in Retry-After, then retry.',
  });
export const snoozeInPast = (received: Date) =>
  validationError([{ field: 'snoozedUntil', code: 'too_small', message: 'snoozedUntil must be in the future (null ends a snooze)', received: received.toISOString() }]);
