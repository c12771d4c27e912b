import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-custom';
import type { Principal } from './principal';
import { SESSION_COOKIE, SessionsService } from './sessions.service';

/** A dashboard session from the cookie; used by the `/auth` and `/users/@me` routes. */
@Injectable()
export class SessionStrategy extends PassportStrategy(Strategy, 'session') {
  constructor(private readonly sessions: SessionsService) {
    super();
  }

  async validate(req: Request): Promise<Principal | false> {
    const token = (req.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE];
    if (!token || token.length > 128) return false;
    const session = await this.sessions.validate(token);
    return session ? { via: 'session', userId: session.userId, sessionId: session.id } : false;
  }
}
