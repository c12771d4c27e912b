import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audited, bodyFieldsOf, fromParam } from '../audit';
import { CurrentUser, Session } from '../auth';
import { CreateProjectDto } from './dto/create-project.dto';
import { ProjectResponse, toProjectResponse } from './dto/project.response';
import { UpdateProjectDto } from './dto/update-project.dto';
import { ProjectIdPipe } from './params.pipe';
import { ProjectsService } from './projects.service';
import { DataHeldResponse } from './dto/data-held.response';
import { RetentionService } from './retention.service';
import { ApiJson, ApiList, ApiNoContent, ApiSuccess } from '../../platform/http/openapi-responses';
import { ApiErrors } from '../../platform/http/openapi-errors';

/** The project of the path is the one acted on, and the audit entry's target. */
const THIS_PROJECT = { project: fromParam('id'), target: { type: 'project', id: fromParam('id') } } as const;

@ApiTags('projects')
@Controller('users/@me/projects')
export class ProjectsController {
  constructor(
    private readonly projects: ProjectsService,
    private readonly retention: RetentionService,
  ) {}

  @Session()
  @Get()
  @ApiOperation({ summary: 'List your projects' })
  @ApiList(ProjectResponse, 'Projects you are a member of')
  async list(@CurrentUser() userId: string): Promise<ProjectResponse[]> {
    const rows = await this.projects.listForUser(userId);
    return rows.map(({ project, role }) => toProjectResponse(project, undefined, role));
  }

  @Session()
  @Post()
  @ApiOperation({ summary: 'Create a project' })
  @ApiErrors(422)
  @ApiJson(201, ProjectResponse, 'The project, with its keys in full (shown only now)')
  async create(@CurrentUser() userId: string, @Body() dto: CreateProjectDto): Promise<ProjectResponse> {
    const { project, keys } = await this.projects.create(userId, dto.name);
    return toProjectResponse(project, keys, 'OWNER');
  }

  @Session()
  @Get(':id')
  @ApiOperation({ summary: 'Get a project' })
  @ApiErrors([404, 'No such project, or you are not a member'])
  @ApiJson(200, ProjectResponse, 'The project')
  async get(@CurrentUser() userId: string, @Param('id', ProjectIdPipe) id: string): Promise<ProjectResponse> {
    const { project, role } = await this.projects.findForMember(id, userId);
    return toProjectResponse(project, undefined, role);
  }

  @Session()
  @Get(':id/storage')
  @ApiOperation({ summary: 'What the project holds, per table (rows, estimated bytes, oldest record)' })
  @ApiErrors([404, 'No such project, or you are not a member'])
  @ApiJson(200, DataHeldResponse, "The project's rows and estimated bytes per table")
  storage(@CurrentUser() userId: string, @Param('id', ProjectIdPipe) id: string): Promise<DataHeldResponse> {
    return this.retention.dataHeld(userId, id);
  }

  @Session()
  @Patch(':id')
  @Audited('project.settings_updated', { ...THIS_PROJECT, changes: bodyFieldsOf(UpdateProjectDto) })
  @ApiOperation({ summary: 'Update a project' })
  @ApiErrors([403, 'Your role in the project is not enough (ADMIN or OWNER needed)'], [404, 'No such project, or you are not a member'], 422)
  @ApiJson(200, ProjectResponse, 'The updated project')
  async update(@CurrentUser() userId: string, @Param('id', ProjectIdPipe) id: string, @Body() dto: UpdateProjectDto): Promise<ProjectResponse> {
    const { project, role } = await this.projects.update(userId, id, dto);
    return toProjectResponse(project, undefined, role);
  }

  @Session()
  @Delete(':id')
  @ApiOperation({ summary: 'Delete a project' })
  @ApiErrors([403, 'Your role in the project is not enough (ADMIN or OWNER needed)'], [404, 'No such project, or you are not a member'])
  @HttpCode(204)
  @ApiNoContent('Deleted with all its data')
  async remove(@CurrentUser() userId: string, @Param('id', ProjectIdPipe) id: string): Promise<void> {
    await this.projects.remove(userId, id);
  }

  /** Both keys in full, once; the old ones stop working at once here and within seconds in other processes. */
  @Session()
  @Post(':id/regenerate-keys')
  @Audited('project.keys_regenerated', THIS_PROJECT)
  @ApiOperation({ summary: 'Regenerate the API keys' })
  @ApiErrors([403, 'Your role in the project is not enough (ADMIN or OWNER needed)'], [404, 'No such project, or you are not a member'])
  @HttpCode(200)
  @ApiJson(200, ProjectResponse, 'New keys in full (the old ones stop working)')
  async regenerateKeys(@CurrentUser() userId: string, @Param('id', ProjectIdPipe) id: string): Promise<ProjectResponse> {
    const { project, keys, role } = await this.projects.regenerateKeys(userId, id);
    return toProjectResponse(project, keys, role);
  }

  @Session()
  @Post(':id/reset')
  @ApiOperation({ summary: "Delete a project's contacts, events, emails and templates" })
  @ApiErrors([403, 'Your role in the project is not enough (ADMIN or OWNER needed)'], [404, 'No such project, or you are not a member'])
  @HttpCode(200)
  @ApiSuccess('Contacts, events, emails and templates of the project deleted')
  async reset(@CurrentUser() userId: string, @Param('id', ProjectIdPipe) id: string): Promise<{ success: true }> {
    await this.projects.reset(userId, id);
    return { success: true };
  }
}
