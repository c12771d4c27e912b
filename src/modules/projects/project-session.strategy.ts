import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-custom';
import { isUUID } from 'class-validator';
import type { Principal } from '../auth';
import { SESSION_COOKIE, SessionsService } from '../auth';
import { projectNotFound } from './projects.errors';
import { ProjectsService } from './projects.service';

/** A dashboard session acting on one project named by `X-Project-Id`; non-members get 404. */
@Injectable()
export class ProjectSessionStrategy extends PassportStrategy(Strategy, 'project-session') {
  constructor(
    private readonly sessions: SessionsService,
    private readonly projects: ProjectsService,
  ) {
    super();
  }

  async validate(req: Request): Promise<Principal | false> {
    const token = (req.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE];
    if (!token || token.length > 128) return false;
    const session = await this.sessions.validate(token);
    if (!session) return false;
    const projectId = req.header('x-project-id');
    if (!projectId || !isUUID(projectId)) throw projectNotFound();
    const role = await this.projects.roleOf(projectId, session.userId);
    if (!role) throw projectNotFound();
    return { via: 'session', userId: session.userId, sessionId: session.id, projectId, role };
  }
}
