import { AppError, badRequest, conflict, forbidden } from '../../platform/http/app-error';

export const emailTaken = () => conflict('An account with this email already exists');
export const invalidCredentials = () => new AppError(401, 'UNAUTHORIZED', 'Invalid email or password');
export const signupDisabled = () => forbidden('Signups are disabled on this deployment');
export const csrfRejected = () =>
  forbidden('Cookie-authenticated writes need the X-Requested-With header or a same-origin Origin', {
    suggestion: 'Send X-Requested-With: XMLHttpRequest, or use an API key for server-to-server calls.',
  });
export const signInCsrfRejected = () =>
  forbidden('Sign-in and sign-up need a JSON body, the X-Requested-With header or a same-origin Origin', {
    suggestion: 'Send the credentials as JSON (Content-Type: application/json), as the dashboard does; cross-site form posts are refused.',
  });
export const insufficientRole = () => new AppError(403, 'FORBIDDEN', 'This action needs the ADMIN or OWNER role');
export const wrongPassword = () => forbidden('The password is not correct', { suggestion: 'Enter the password you sign in with.' });
export const invalidToken = () =>
  badRequest('This link is invalid, already used or expired', { suggestion: 'Request a new email and use its link.' });
