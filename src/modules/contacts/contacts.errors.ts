import { AppError, conflict, notFound } from '../../platform/http/app-error';

export const contactNotFound = () => notFound('Contact');
export const contactEmailTaken = (email: string) =>
  conflict('Another contact in this project already has this email', { details: { email } });
export const fieldNotFound = (field: string) => new AppError(404, 'NOT_FOUND', `Field ${field} not found`);
export const standardFieldNotDeletable = (field: string) =>
  new AppError(400, 'BAD_REQUEST', `${field} is a standard field and cannot be deleted`, {
    suggestion: 'Only custom fields (data.<key>) can be deleted.',
  });
