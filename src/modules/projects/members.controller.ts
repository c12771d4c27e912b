import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { Audited, fromParam, fromResult } from '../audit';
import { CurrentUser, Session } from '../auth';
import { AddMemberDto } from './dto/add-member.dto';
import { MemberResponse, toMemberResponse } from './dto/member.response';
import { UpdateMemberDto } from './dto/update-member.dto';
import { MembersService } from './members.service';
import { MemberIdPipe, ProjectIdPipe } from './params.pipe';
import { SetupState, SetupStateService } from './setup-state.service';
import { ApiJson, ApiList, ApiNoContent } from '../../platform/http/openapi-responses';
import { ApiErrors } from '../../platform/http/openapi-errors';

@ApiTags('projects')
@Controller('projects/:id')
export class MembersController {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly members: MembersService,
    private readonly setupState: SetupStateService,
  ) {}

  @Session()
  @Get('setup-state')
  @ApiOperation({ summary: 'Get the setup checklist of a project' })
  @ApiErrors([404, 'No such project, or you are not a member'])
  @ApiJson(200, { type: 'object', properties: { hasDomain: { type: 'boolean' }, hasVerifiedDomain: { type: 'boolean' }, hasContacts: { type: 'boolean' }, hasTemplates: { type: 'boolean' }, hasSentEmail: { type: 'boolean' }, hasEvents: { type: 'boolean' }, hasCampaigns: { type: 'boolean' }, hasWorkflows: { type: 'boolean' }, hasSegments: { type: 'boolean' }, hasTeamMembers: { type: 'boolean' }, completed: { type: 'boolean' } } }, 'Onboarding checklist')
  getSetupState(@CurrentUser() userId: string, @Param('id', ProjectIdPipe) id: string): Promise<SetupState> {
    return this.setupState.get(userId, id, this.config.domainVerification === 'off');
  }

  @Session()
  @Get('members')
  @ApiOperation({ summary: 'List the members of a project' })
  @ApiErrors([404, 'No such project, or you are not a member'])
  @ApiList(MemberResponse, 'Members and their roles')
  async list(@CurrentUser() userId: string, @Param('id', ProjectIdPipe) id: string): Promise<MemberResponse[]> {
    return (await this.members.list(userId, id)).map(toMemberResponse);
  }

  @Session()
  @Post('members')
  @Audited('member.added', { project: fromParam('id'), target: { type: 'user', id: fromResult('userId') } })
  @ApiOperation({ summary: 'Add a member' })
  @ApiErrors([403, 'Your role in the project is not enough (ADMIN or OWNER needed)'], [404, 'No such project (or you are not a member), or no account with that email'], [409, 'The user is already a member'], 422)
  @ApiJson(201, MemberResponse, 'The new member')
  async add(@CurrentUser() userId: string, @Param('id', ProjectIdPipe) id: string, @Body() dto: AddMemberDto): Promise<MemberResponse> {
    return toMemberResponse(await this.members.add(userId, id, dto.email, dto.role));
  }

  @Session()
  @Patch('members/:userId')
  @Audited('member.role_changed', { project: fromParam('id'), target: { type: 'user', id: fromParam('userId') } })
  @ApiOperation({ summary: "Change a member's role" })
  @ApiErrors([403, 'Your role is not enough, the OWNER cannot be demoted, or you cannot change your own role'], [404, 'No such project or member'], 422)
  @ApiJson(200, MemberResponse, 'The member with the new role')
  async changeRole(
    @CurrentUser() userId: string,
    @Param('id', ProjectIdPipe) id: string,
    @Param('userId', MemberIdPipe) memberId: string,
    @Body() dto: UpdateMemberDto,
  ): Promise<MemberResponse> {
    return toMemberResponse(await this.members.changeRole(userId, id, memberId, dto.role));
  }

  @Session()
  @Delete('members/:userId')
  @Audited('member.removed', { project: fromParam('id'), target: { type: 'user', id: fromParam('userId') } })
  @ApiOperation({ summary: 'Remove a member' })
  @ApiErrors([403, 'Your role is not enough, the OWNER cannot be removed, or you cannot remove yourself'], [404, 'No such project or member'])
  @HttpCode(204)
  @ApiNoContent('Member removed')
  async remove(@CurrentUser() userId: string, @Param('id', ProjectIdPipe) id: string, @Param('userId', MemberIdPipe) memberId: string): Promise<void> {
    await this.members.remove(userId, id, memberId);
  }
}
