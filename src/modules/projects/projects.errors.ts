import { AppError, notFound } from '../../platform/http/app-error';

export const projectNotFound = () => notFound('Project');
export const projectDisabled = (reason: string | null) =>
  new AppError(403, 'PROJECT_DISABLED', `This project is disabled${reason ? ` (${reason})` : ''}`, {
    suggestion: 'An ADMIN can re-enable it with PATCH /users/@me/projects/:id {"disabled": false}.',
  });
export const insufficientRole = () => new AppError(403, 'FORBIDDEN', 'This action needs the ADMIN or OWNER role');
