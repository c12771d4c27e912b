import { AppError, badRequest, conflict, FieldError, notFound, ShortBadRequest, validationError } from '../../platform/http/app-error';

export const segmentNotFound = () => notFound('Segment');
export const missingSegmentField = (message: string) => new ShortBadRequest(message);
/** PATCH: a condition that is not a filter tree object is a 422 naming it (the short 400 is only for POST's missing input). */
export const conditionNotObject = (received: unknown) =>
  validationError([{ field: 'condition', code: 'invalid_type', message: 'condition must be a filter tree object', received }]);
export const invalidCondition = (errors: FieldError[]) => validationError(errors);
export const typeImmutable = (received: unknown) =>
  validationError([{ field: 'type', code: 'immutable', message: 'type cannot change after a segment is created', received }]);
export const staticOnly = () => badRequest('Members can be added or removed only on a STATIC segment; a DYNAMIC segment is defined by its condition');
export const dynamicOnly = () => badRequest('Only a DYNAMIC segment has a computed membership; a STATIC segment lists its members directly');
export const segmentInUse = (uses: { segments: Array<{ id: string; name: string | null }>; campaigns: Array<{ id: string; name: string | null }> }) =>
  conflict('The segment is in use: remove it from these segments and active campaigns first', { details: uses });
/** A segment query that ran past SEGMENT_QUERY_TIMEOUT_MS: the tree is too costly for this data, a client problem. */
export const segmentTooSlow = (label: string, timeoutMs: number) =>
  new AppError(422, 'VALIDATION_ERROR', `Evaluating ${label} took longer than ${timeoutMs} ms and was stopped`, {
    errors: [{ field: 'condition', code: 'query_timeout', message: `${label} took longer than ${timeoutMs} ms to evaluate`, received: label }],
    suggestion: 'Narrow the condition (fewer contains/notContains filters, shorter event windows), or raise SEGMENT_QUERY_TIMEOUT_MS.',
  });
