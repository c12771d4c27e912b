import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Request } from 'express';
import { unauthorized } from '../../platform/http/app-error';
import type { Principal } from './principal';

// The access decorators are HTTP conventions (platform/http/access.ts); modules take them from here.
export { ACCESS_KEY, Public, PublicOrSecretKey, SecretKey, Session } from '../../platform/http/access';
export type { AccessKind } from '../../platform/http/access';

export const SETS_SESSION_KEY = 'mailroom:sets-session';

/**
 * A public route that signs the browser in (login, signup): it takes the CSRF rule of cookie
 * writes, so a form on another site cannot put the victim in the attacker's account (login CSRF).
 */
export const SetsSession = () => SetMetadata(SETS_SESSION_KEY, true);

export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const principal = ctx.switchToHttp().getRequest<Request>().user as Principal | undefined;
  if (!principal) throw unauthorized();
  return principal;
});

/** The project id of a key- or project-session-authenticated request. */
export const CurrentProject = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const principal = ctx.switchToHttp().getRequest<Request>().user as Principal | undefined;
  if (!principal?.projectId) throw unauthorized();
  return principal.projectId;
});

export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const principal = ctx.switchToHttp().getRequest<Request>().user as Principal | undefined;
  if (!principal?.userId) throw unauthorized();
  return principal.userId;
});
