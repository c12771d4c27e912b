import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiErrors } from '../../../platform/http/openapi-errors';
import { ApiJson } from '../../../platform/http/openapi-responses';
import { sendStream } from '../../../platform/http/stream-response';
import { Audited, fromResult } from '../../audit';
import { CurrentPrincipal, CurrentProject, type Principal, SecretKey } from '../../auth';
import { ContactExportsService } from './contact-exports.service';
import { ContactExportQueuedResponse, ContactExportJobResponse } from './dto/contact-export-job.response';
import { CreateContactExportDto } from './dto/create-contact-export.dto';

const MANAGERS_ONLY: [403, string] = [403, 'A dashboard session whose role is below ADMIN'];

@ApiTags('contacts')
@Controller('contacts/export')
@SecretKey()
export class ContactExportsController {
  constructor(private readonly exports: ContactExportsService) {}

  @Post()
  @ApiOperation({ summary: 'Export contacts (every contact, a segment or a filter) to a CSV or NDJSON file' })
  @ApiErrors(MANAGERS_ONLY, [404, 'A segment of another project'], [422, 'A bad format, a malformed segmentId, a filter that does not hold, or both segmentId and filter'])
  @HttpCode(202)
  @ApiJson(202, ContactExportQueuedResponse, 'Export queued')
  @Audited('contacts.exported', { target: { type: 'contact_export', id: fromResult('jobId') } })
  create(@CurrentPrincipal() principal: Principal, @CurrentProject() projectId: string, @Body() dto: CreateContactExportDto): Promise<ContactExportQueuedResponse> {
    return this.exports.create(principal, projectId, dto);
  }

  @Get(':jobId')
  @ApiOperation({ summary: 'Get a contact export' })
  @ApiErrors(MANAGERS_ONLY, 404)
  @ApiJson(200, ContactExportJobResponse, 'The export, its progress and, once completed, its download address')
  get(@CurrentPrincipal() principal: Principal, @CurrentProject() projectId: string, @Param('jobId') jobId: string): Promise<ContactExportJobResponse> {
    return this.exports.get(principal, projectId, jobId);
  }

  @Get(':jobId/download')
  @ApiOperation({ summary: "Download a completed contact export's file" })
  @ApiErrors(MANAGERS_ONLY, [404, 'An export of another project, or one deleted after its 7 days'], [409, 'The export is not completed'])
  @ApiResponse({ status: 200, description: 'The file, as an attachment', content: { 'text/csv': { schema: { type: 'string', format: 'binary' } }, 'application/x-ndjson': { schema: { type: 'string', format: 'binary' } } } })
  async download(@CurrentPrincipal() principal: Principal, @CurrentProject() projectId: string, @Param('jobId') jobId: string, @Res() res: Response): Promise<void> {
    const file = await this.exports.download(principal, projectId, jobId);
    sendStream(res, file.body, file.headers);
  }
}
