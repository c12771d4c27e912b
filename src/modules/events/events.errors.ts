import { AppError, notFound, validationError } from '../../platform/http/app-error';

export const eventNameNotFound = (name: string) => new AppError(404, 'NOT_FOUND', `No events named ${name}`);
export const eventContactNotFound = () => notFound('Contact');
export const reservedEventNotDeletable = (name: string) =>
  validationError([{ field: 'eventName', message: `${name} is a system event name; its history cannot be deleted`, code: 'reserved_event', received: name }]);
