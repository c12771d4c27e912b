import { Controller, Delete, Get, HttpCode, Param, Query } from '@nestjs/common';
import { CurrentProject, SecretKey } from '../auth';
import { ContactFieldsService } from './contact-fields.service';
import { FieldValuesQuery } from './dto/field-values.query';
import { ApiCursorPage, ApiJson, ApiNoContent } from '../../platform/http/openapi-responses';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../platform/http/openapi-errors';

/** Registered before ContactsController so `/contacts/fields` never reaches `/contacts/:id`. */
@ApiTags('contacts')
@Controller('contacts/fields')
@SecretKey()
export class ContactFieldsController {
  constructor(private readonly fields: ContactFieldsService) {}

  @Get()
  @ApiOperation({ summary: 'List contact fields and their types' })
  @ApiJson(200, { type: 'object', properties: { fields: { type: 'array', items: { type: 'object', properties: { field: { type: 'string', description: 'email, subscribed, createdAt, updatedAt or data.<key>' }, type: { type: 'string', enum: ['string', 'number', 'boolean', 'date'] }, isCustom: { type: 'boolean' }, coverage: { type: 'number', description: 'Share of contacts with a value, 0-1' } } } } } }, 'Standard and custom fields with their types and coverage')
  list(@CurrentProject() projectId: string) {
    return this.fields.list(projectId);
  }

  @Get(':field/values')
  @ApiOperation({ summary: 'List the distinct values of a field' })
  @ApiErrors([404, 'No such field'], 422)
  @ApiCursorPage({ type: 'object', properties: { value: { description: 'A distinct value (any JSON type)' }, count: { type: 'integer' } } }, 'Distinct values, most frequent first')
  values(@CurrentProject() projectId: string, @Param('field') field: string, @Query() query: FieldValuesQuery) {
    return this.fields.values(projectId, field, query);
  }

  @Get(':field/usage')
  @ApiOperation({ summary: 'List what uses a field' })
  @ApiErrors([404, 'No such field'])
  @ApiJson(200, { type: 'object', description: 'Where it is referenced (segments, campaigns, workflows)', properties: { field: { type: 'string' }, segments: { type: 'array', items: { type: 'object', additionalProperties: true } }, campaigns: { type: 'array', items: { type: 'object', additionalProperties: true } }, workflows: { type: 'array', items: { type: 'object', additionalProperties: true } }, total: { type: 'integer', description: 'References found' } } }, 'Where the field is used')
  usage(@CurrentProject() projectId: string, @Param('field') field: string) {
    return this.fields.usage(projectId, field);
  }

  @Delete(':field')
  @ApiOperation({ summary: 'Remove a custom field from every contact' })
  @ApiErrors([404, 'No such field'])
  @HttpCode(204)
  @ApiNoContent('Field removed from every contact')
  async remove(@CurrentProject() projectId: string, @Param('field') field: string): Promise<void> {
    await this.fields.remove(projectId, field);
  }
}
