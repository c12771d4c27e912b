import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Request } from 'express';
import { unauthorized } from '../../platform/http/app-error';
import type { Principal } from './principal';

export const ACCESS_KEY = 'mailroom:access';

/**
 * How a route authenticates; the global guard denies routes that declare none.
 * - public: no credentials.
 * - secret: the project's secret key, or a dashboard session with `X-Project-Id`.
 * - public-or-secret: as `secret`, plus the public key (only `/v1/track`).
 * - session: a dashboard session; no project is derived.
 */
export type AccessKind = 'public' | 'secret' | 'public-or-secret' | 'session';

export const Public = () => SetMetadata(ACCESS_KEY, 'public' satisfies AccessKind);
export const SecretKey = () => SetMetadata(ACCESS_KEY, 'secret' satisfies AccessKind);
export const PublicOrSecretKey = () => SetMetadata(ACCESS_KEY, 'public-or-secret' satisfies AccessKind);
export const Session = () => SetMetadata(ACCESS_KEY, 'session' satisfies AccessKind);

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
