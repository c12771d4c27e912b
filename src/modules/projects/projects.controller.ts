import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentUser, Session } from '../auth/auth.decorators';
import { CreateProjectDto } from './dto/create-project.dto';
import { ProjectResponse, toProjectResponse } from './dto/project.response';
import { ProjectsService } from './projects.service';

@ApiTags('projects')
@Controller('users/@me/projects')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Session()
  @Get()
  async list(@CurrentUser() userId: string): Promise<ProjectResponse[]> {
    const rows = await this.projects.listForUser(userId);
    return rows.map(({ project, role }) => toProjectResponse(project, undefined, role));
  }

  @Session()
  @Post()
  async create(@CurrentUser() userId: string, @Body() dto: CreateProjectDto): Promise<ProjectResponse> {
    const { project, keys } = await this.projects.create(userId, dto.name);
    return toProjectResponse(project, keys, 'OWNER');
  }
}
