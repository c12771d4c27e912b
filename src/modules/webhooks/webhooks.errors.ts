import { conflict, notFound, validationError } from '../../platform/http/app-error';

export const webhookNotFound = () => notFound('Webhook');
export const deliveryNotFound = () => notFound('Delivery');

/** The 21st endpoint of a project: 422 on `url`, the field a create names. */
export const tooManyEndpoints = (max: number) =>
  validationError([{ field: 'url', code: 'too_big', message: `a project has at most ${max} webhook endpoints; delete one first` }], `A project has at most ${max} webhook endpoints`);

export const endpointDisabled = () =>
  conflict('The webhook endpoint is disabled', { suggestion: 'Enable it with PATCH /webhooks/:id {"enabled": true} first.' });

export const replayWindowInvalid = (errors: Array<{ field: 'since' | 'until'; message: string; received?: unknown }>) =>
  validationError(errors.map((e) => ({ ...e, code: 'invalid_date' })));

/** More matching events than a replay queues: 422 on `since`, with the count, so the caller narrows the window. */
export const replayTooLarge = (count: number, max: number, since: string) =>
  validationError(
    [{ field: 'since', code: 'too_big', message: `the window holds ${count} matching events; a replay queues at most ${max}: narrow it (a later since, or an until)`, received: since }],
    `The replay window holds ${count} matching events (at most ${max})`,
  );

export const replayPending = () =>
  conflict('A replay of this webhook endpoint is still pending', { suggestion: 'Wait until its deliveries are no longer pending (GET /webhooks/:id/deliveries?status=pending), then replay again.' });
