import { Controller, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, Session } from '../auth';
import { SecurityService, SecurityState } from './security.service';
import { ProjectIdPipe } from './params.pipe';
import { ApiJson } from '../../platform/http/openapi-responses';
import { ApiErrors } from '../../platform/http/openapi-errors';

const SECURITY = { type: 'object', properties: { projectId: { type: 'string' }, disabled: { type: 'boolean' }, disabledReason: { type: 'string', nullable: true }, disabledAt: { type: 'string', nullable: true }, window: { type: 'object', properties: { days: { type: 'integer' }, since: { type: 'string' } } }, emails: { type: 'integer' }, bounces: { type: 'integer' }, complaints: { type: 'integer' }, bounceRate: { type: 'number' }, complaintRate: { type: 'number' }, thresholds: { type: 'object', properties: { minimumEmails: { type: 'integer' }, bounceRate: { type: 'number' }, complaintRate: { type: 'number' } } }, suspensions: { type: 'array', items: { type: 'object', additionalProperties: true } } } };

/** Sending reputation of a project, for its members (others get 404). */
@ApiTags('projects')
@Controller()
export class SecurityController {
  constructor(private readonly security: SecurityService) {}

  @Session()
  @Get('users/@me/projects/:id/security')
  @ApiOperation({ summary: 'Get the sending reputation of a project' })
  @ApiErrors([404, 'No such project, or you are not a member'])
  @ApiJson(200, SECURITY, 'Bounce and complaint rates over the window, thresholds and suspensions')
  forUser(@CurrentUser() userId: string, @Param('id', ProjectIdPipe) projectId: string): Promise<SecurityState> {
    return this.security.stateForMember(userId, projectId);
  }

  @Session()
  @Get('projects/:id/security')
  @ApiOperation({ summary: 'Get the sending reputation of a project (project path)' })
  @ApiErrors([404, 'No such project, or you are not a member'])
  @ApiJson(200, SECURITY, 'Bounce and complaint rates over the window, thresholds and suspensions')
  forProject(@CurrentUser() userId: string, @Param('id', ProjectIdPipe) projectId: string): Promise<SecurityState> {
    return this.security.stateForMember(userId, projectId);
  }
}
