import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { invalidApiKey, unauthorized } from '../../platform/http/app-error';
import { ACCESS_KEY, AccessKind, SETS_SESSION_KEY } from './auth.decorators';
import { csrfRejected, signInCsrfRejected } from './auth.errors';
import type { Principal } from './principal';
import { setRequestAttributes } from '../../platform/telemetry/telemetry';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

class ApiKeyGuard extends AuthGuard('api-key') {
  override handleRequest<T>(err: unknown, user: T): T {
    if (err) throw err;
    if (!user) throw invalidApiKey();
    return user;
  }
}

class SessionGuard extends AuthGuard('session') {
  override handleRequest<T>(err: unknown, user: T): T {
    if (err) throw err;
    if (!user) throw unauthorized('A valid session is required');
    return user;
  }
}

class ProjectSessionGuard extends AuthGuard('project-session') {
  override handleRequest<T>(err: unknown, user: T): T {
    if (err) throw err;
    if (!user) throw invalidApiKey('An API key (or a dashboard session with X-Project-Id) is required');
    return user;
  }
}

/**
 * Deny by default: a route without an access declaration is refused. Requests with an
 * `Authorization` header are judged by the key alone; otherwise the session cookie is used.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly apiKey = new ApiKeyGuard();
  private readonly session = new SessionGuard();
  private readonly projectSession = new ProjectSessionGuard();

  constructor(
    private readonly reflector: Reflector,
    private readonly publicUrl: string,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const kind = this.reflector.getAllAndOverride<AccessKind | undefined>(ACCESS_KEY, [context.getHandler(), context.getClass()]);
    if (!kind) throw unauthorized('This route declares no access rule');
    const req = context.switchToHttp().getRequest<Request>();
    // The route template on the request's span (no express instrumentation: docs/operations.md, "Observability").
    if (typeof req.route?.path === 'string') setRequestAttributes(req, { 'http.route': req.route.path });
    if (kind === 'public') {
      if (this.reflector.getAllAndOverride<boolean | undefined>(SETS_SESSION_KEY, [context.getHandler(), context.getClass()])) this.checkCsrf(req, true);
      return true;
    }
    if (kind === 'session') {
      await this.session.canActivate(context);
      this.checkCsrf(req);
      return true;
    }
    if (req.header('authorization') !== undefined) {
      await this.apiKey.canActivate(context);
      const principal = req.user as Principal;
      if (principal.projectId) setRequestAttributes(req, { 'mailroom.project_id': principal.projectId });
      if (principal.via === 'public_key' && kind !== 'public-or-secret') {
        throw invalidApiKey('This endpoint needs the secret key (sk_…); the public key only works on /v1/track');
      }
      return true;
    }
    await this.projectSession.canActivate(context);
    const projectId = (req.user as Principal | undefined)?.projectId;
    if (projectId) setRequestAttributes(req, { 'mailroom.project_id': projectId });
    this.checkCsrf(req);
    return true;
  }

  /**
   * Cookie-authenticated writes, and the routes that set the cookie, must prove they come from
   * script on our origin: a header or a same-origin `Origin` that no cross-site form can send.
   * `json`: JSON also proves it there (login, signup), as a page on another origin can send it
   * only after a CORS preflight, which no cookie route grants.
   */
  private checkCsrf(req: Request, json = false): void {
    if (SAFE_METHODS.has(req.method)) return;
    if (req.header('x-requested-with')) return;
    if (json && req.is('application/json')) return;
    const origin = req.header('origin');
    if (origin && origin === new URL(this.publicUrl).origin) return;
    throw json ? signInCsrfRejected() : csrfRejected();
  }
}
