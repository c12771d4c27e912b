import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentProject, SecretKey } from '../auth/auth.decorators';
import { CreateTemplateDto } from './dto/create-template.dto';
import { ListTemplatesQuery } from './dto/list-templates.query';
import { TemplatePage, TemplateResponse, TemplateUsageResponse, toTemplateResponse } from './dto/template.response';
import { UpdateTemplateDto } from './dto/update-template.dto';
import { TemplatesService } from './templates.service';

@ApiTags('templates')
@Controller('templates')
export class TemplatesController {
  constructor(private readonly templates: TemplatesService) {}

  @SecretKey()
  @Get()
  list(@CurrentProject() projectId: string, @Query() query: ListTemplatesQuery): Promise<TemplatePage> {
    return this.templates.list(projectId, query);
  }

  @SecretKey()
  @Post()
  async create(@CurrentProject() projectId: string, @Body() dto: CreateTemplateDto): Promise<TemplateResponse> {
    return toTemplateResponse(await this.templates.create(projectId, dto));
  }

  @SecretKey()
  @Get(':id')
  async get(@CurrentProject() projectId: string, @Param('id') id: string): Promise<TemplateResponse> {
    return toTemplateResponse(await this.templates.findOne(projectId, id));
  }

  @SecretKey()
  @Patch(':id')
  async update(@CurrentProject() projectId: string, @Param('id') id: string, @Body() dto: UpdateTemplateDto): Promise<TemplateResponse> {
    return toTemplateResponse(await this.templates.update(projectId, id, dto));
  }

  @SecretKey()
  @Delete(':id')
  @HttpCode(204)
  async remove(@CurrentProject() projectId: string, @Param('id') id: string): Promise<void> {
    await this.templates.remove(projectId, id);
  }

  @SecretKey()
  @Post(':id/duplicate')
  async duplicate(@CurrentProject() projectId: string, @Param('id') id: string): Promise<TemplateResponse> {
    return toTemplateResponse(await this.templates.duplicate(projectId, id));
  }

  @SecretKey()
  @Get(':id/usage')
  usage(@CurrentProject() projectId: string, @Param('id') id: string): Promise<TemplateUsageResponse> {
    return this.templates.usage(projectId, id);
  }
}
