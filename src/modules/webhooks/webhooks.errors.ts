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
