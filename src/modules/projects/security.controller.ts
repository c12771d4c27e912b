import { Controller, Get, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentUser, Session } from '../auth/auth.decorators';
import { SecurityService, SecurityState } from './security.service';

/** Sending reputation of a project, for its members (others get 404). */
@ApiTags('projects')
@Controller()
export class SecurityController {
  constructor(private readonly security: SecurityService) {}

  @Session()
  @Get('users/@me/projects/:id/security')
  forUser(@CurrentUser() userId: string, @Param('id') projectId: string): Promise<SecurityState> {
    return this.security.stateForMember(userId, projectId);
  }

  @Session()
  @Get('projects/:id/security')
  forProject(@CurrentUser() userId: string, @Param('id') projectId: string): Promise<SecurityState> {
    return this.security.stateForMember(userId, projectId);
  }
}
