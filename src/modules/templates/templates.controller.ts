import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentProject, SecretKey } from '../auth/auth.decorators';
import { CreateTemplateDto } from './dto/create-template.dto';
import { ListTemplatesQuery } from './dto/list-templates.query';
import { TemplatePage, TemplateResponse, TemplateUsageResponse, toTemplateResponse } from './dto/template.response';
import { UpdateTemplateDto } from './dto/update-template.dto';
import { TemplatesService } from './templates.service';
import { ApiJson, ApiNoContent } from '../../platform/http/openapi-responses';

@ApiTags('templates')
@Controller('templates')
export class TemplatesController {
  constructor(private readonly templates: TemplatesService) {}

  @SecretKey()
  @Get()
  @ApiJson(200, TemplatePage, 'A page of templates')
  list(@CurrentProject() projectId: string, @Query() query: ListTemplatesQuery): Promise<TemplatePage> {
    return this.templates.list(projectId, query);
  }

  @SecretKey()
  @Post()
  @ApiJson(201, TemplateResponse, 'The template')
  async create(@CurrentProject() projectId: string, @Body() dto: CreateTemplateDto): Promise<TemplateResponse> {
    return toTemplateResponse(await this.templates.create(projectId, dto));
  }

  @SecretKey()
  @Get(':id')
  @ApiJson(200, TemplateResponse, 'The template')
  async get(@CurrentProject() projectId: string, @Param('id') id: string): Promise<TemplateResponse> {
    return toTemplateResponse(await this.templates.findOne(projectId, id));
  }

  @SecretKey()
  @Patch(':id')
  @ApiJson(200, TemplateResponse, 'The updated template')
  async update(@CurrentProject() projectId: string, @Param('id') id: string, @Body() dto: UpdateTemplateDto): Promise<TemplateResponse> {
    return toTemplateResponse(await this.templates.update(projectId, id, dto));
  }

  @SecretKey()
  @Delete(':id')
  @HttpCode(204)
  @ApiNoContent('Deleted')
  async remove(@CurrentProject() projectId: string, @Param('id') id: string): Promise<void> {
    await this.templates.remove(projectId, id);
  }

  @SecretKey()
  @Post(':id/duplicate')
  @ApiJson(201, TemplateResponse, 'The copy')
  async duplicate(@CurrentProject() projectId: string, @Param('id') id: string): Promise<TemplateResponse> {
    return toTemplateResponse(await this.templates.duplicate(projectId, id));
  }

  @SecretKey()
  @Get(':id/usage')
  @ApiJson(200, TemplateUsageResponse, 'Campaigns and workflow steps using the template')
  usage(@CurrentProject() projectId: string, @Param('id') id: string): Promise<TemplateUsageResponse> {
    return this.templates.usage(projectId, id);
  }
}
