import { badRequest, conflict, FieldError, notFound, validationError } from '../../platform/http/app-error';

export const campaignNotFound = () => notFound('Campaign');

/** One 422 item per missing required field (docs/decisions.md#campaigns). */
export const missingCampaignFields = (fields: string[]) =>
  validationError(fields.map((field): FieldError => ({ field, message: `${field} is required`, code: 'required' })));

export const campaignFieldInvalid = (items: FieldError[]) => validationError(items);

export const wrongCampaignStatus = (action: string, status: string) => conflict(`Cannot ${action} a campaign in status ${status}`, { details: { status } });

export const unknownStatusFilter = (value: string) => badRequest(`Unrecognised campaign status: ${value}`, { details: { allowed: ['DRAFT', 'SCHEDULED', 'SENDING', 'SENT', 'CANCELLED'] } });

export const unparseableScheduledFor = () => badRequest('scheduledFor is not a date', { suggestion: 'Send an ISO 8601 date-time, e.g. 2030-01-01T09:00:00Z, or omit it to send now.' });

/** `limit`/`cursor` (cursor list) together with `page`/`pageSize` (offset list): one item per parameter of the second pair given. */
export const mixedPagination = (query: { page?: unknown; pageSize?: unknown }) =>
  validationError(
    (['page', 'pageSize'] as const)
      .filter((field) => query[field] !== undefined)
      .map((field): FieldError => ({ field, message: `${field} cannot be combined with limit or cursor: use page/pageSize (offset list) or limit/cursor (cursor list)`, code: 'invalid_combination', received: query[field] })),
  );

/** `POST /campaigns/:id/ab/winner` outside an A/B test's test phase or wait. */
export const abNotPickable = (why: string) => conflict(`Cannot pick an A/B winner: ${why}`);

export const abUnknownVariant = (variant: string, letters: string[]) =>
  validationError([{ field: 'variant', message: `variant must be one of ${letters.join(', ')}`, code: 'invalid_value', received: variant }]);

export const abWithRecipientTimezone = () =>
  validationError([
    { field: 'timezone', message: 'An A/B campaign cannot be sent in the recipients\' time zones: its variants are compared sent at one time', code: 'invalid_combination', received: 'recipient' },
  ]);
