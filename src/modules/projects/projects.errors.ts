import { AppError, conflict, forbidden, notFound, validationError } from '../../platform/http/app-error';

export const projectNotFound = () => notFound('Project');
export const memberNotFound = () => notFound('Member');
export const userNotFound = () =>
  new AppError(404, 'NOT_FOUND', 'No user with this email', { suggestion: 'The person must sign up before they can be added to a project.' });
export const alreadyMember = () => conflict('This user is already a member of the project');
export const ownsSharedProjects = (projects: Array<{ id: string; name: string }>) =>
  conflict(`You own ${projects.length === 1 ? 'a project' : 'projects'} with other members: ${projects.map((p) => `"${p.name}"`).join(', ')}`, {
    details: { projects: projects.map(({ id, name }) => ({ id, name })) },
    suggestion: 'Remove the other members of these projects, or delete the projects, then delete your account.',
  });
export const projectDisabled = (reason: string | null) =>
  new AppError(403, 'PROJECT_DISABLED', `This project is disabled${reason ? ` (${reason})` : ''}`, {
    suggestion: 'An ADMIN can re-enable it with PATCH /users/@me/projects/:id {"disabled": false}.',
  });
/** Defined with the role rule it belongs to (auth's `requireManager`); named here too for the project's own checks. */
export { insufficientRole } from '../auth';
export const ownerIsFixed = () => forbidden('The OWNER cannot be removed or demoted');
export const cannotChangeSelf = () => forbidden('You cannot remove yourself or change your own role');
export const defaultFromNotVerified = (email: string) =>
  validationError([
    {
      field: 'defaultFrom.email',
      code: 'domain_not_verified',
      message: `defaultFrom.email must be on a verified domain of this project (${email} is not); add and verify its domain with POST /domains first`,
      received: email,
    },
  ]);

export const confirmationTemplateNotFound = (templateId: string) =>
  validationError([{ field: 'doubleOptIn.templateId', code: 'not_found', message: 'doubleOptIn.templateId must be a template of this project', received: templateId }]);
export const confirmationTemplateWithoutLink = (templateId: string) =>
  validationError([
    {
      field: 'doubleOptIn.templateId',
      code: 'missing_confirm_url',
      message: 'The confirmation template must use {{confirmUrl}} (the link that confirms the subscription)',
      received: templateId,
    },
  ]);
