import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentProject, SecretKey } from '../auth';
import { CreateTemplateDto } from './dto/create-template.dto';
import { ListTemplatesQuery } from './dto/list-templates.query';
import { TemplatePage, TemplateResponse, TemplateUsageResponse, toTemplateResponse } from './dto/template.response';
import { UpdateTemplateDto } from './dto/update-template.dto';
import { TemplatesService } from './templates.service';
import { ApiJson, ApiNoContent } from '../../platform/http/openapi-responses';
import { ApiErrors, ApiShortBadRequest } from '../../platform/http/openapi-errors';
import { ParseUuidPipe } from '../../platform/http/parse-uuid.pipe';
import { templateNotFound } from './templates.errors';

const TemplateId = new ParseUuidPipe(templateNotFound);

@ApiTags('templates')
@Controller('templates')
export class TemplatesController {
  constructor(private readonly templates: TemplatesService) {}

  @SecretKey()
  @Get()
  @ApiOperation({ summary: 'List templates' })
  @ApiErrors(422)
  @ApiJson(200, TemplatePage, 'A page of templates')
  list(@CurrentProject() projectId: string, @Query() query: ListTemplatesQuery): Promise<TemplatePage> {
    return this.templates.list(projectId, query);
  }

  @SecretKey()
  @Post()
  @ApiOperation({ summary: 'Create a template' })
  @ApiShortBadRequest('A required field (name, subject, body) is missing: `{ "error": "<field> is required" }`')
  @ApiErrors([403, 'The sender domain is not a verified domain of the project (DOMAIN_NOT_VERIFIED)'], 422)
  @ApiJson(201, TemplateResponse, 'The template')
  async create(@CurrentProject() projectId: string, @Body() dto: CreateTemplateDto): Promise<TemplateResponse> {
    return toTemplateResponse(await this.templates.create(projectId, dto));
  }

  @SecretKey()
  @Get(':id')
  @ApiOperation({ summary: 'Get a template' })
  @ApiErrors(404)
  @ApiJson(200, TemplateResponse, 'The template')
  async get(@CurrentProject() projectId: string, @Param('id', TemplateId) id: string): Promise<TemplateResponse> {
    return toTemplateResponse(await this.templates.findOne(projectId, id));
  }

  @SecretKey()
  @Patch(':id')
  @ApiOperation({ summary: 'Update a template' })
  @ApiErrors([403, 'The sender domain is not a verified domain of the project (DOMAIN_NOT_VERIFIED)'], 404, 422)
  @ApiJson(200, TemplateResponse, 'The updated template')
  async update(@CurrentProject() projectId: string, @Param('id', TemplateId) id: string, @Body() dto: UpdateTemplateDto): Promise<TemplateResponse> {
    return toTemplateResponse(await this.templates.update(projectId, id, dto));
  }

  @SecretKey()
  @Delete(':id')
  @ApiOperation({ summary: 'Delete a template' })
  @ApiErrors(404)
  @HttpCode(204)
  @ApiNoContent('Deleted')
  async remove(@CurrentProject() projectId: string, @Param('id', TemplateId) id: string): Promise<void> {
    await this.templates.remove(projectId, id);
  }

  @SecretKey()
  @Post(':id/duplicate')
  @ApiOperation({ summary: 'Duplicate a template' })
  @ApiErrors(404)
  @ApiJson(201, TemplateResponse, 'The copy')
  async duplicate(@CurrentProject() projectId: string, @Param('id', TemplateId) id: string): Promise<TemplateResponse> {
    return toTemplateResponse(await this.templates.duplicate(projectId, id));
  }

  @SecretKey()
  @Get(':id/usage')
  @ApiOperation({ summary: 'List what uses a template' })
  @ApiErrors(404)
  @ApiJson(200, TemplateUsageResponse, 'Campaigns and workflow steps using the template')
  usage(@CurrentProject() projectId: string, @Param('id', TemplateId) id: string): Promise<TemplateUsageResponse> {
    return this.templates.usage(projectId, id);
  }
}
