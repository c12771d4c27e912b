import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentProject, SecretKey } from '../../auth';
import { BulkService } from './bulk.service';
import { BulkContactsDto } from './dto/bulk-contacts.dto';
import { BulkJobResponse } from './dto/bulk-job.response';
import { ApiJson } from '../../../platform/http/openapi-responses';
import { ApiErrors } from '../../../platform/http/openapi-errors';

type Queued = Promise<{ jobId: string; status: 'queued' }>;

@ApiTags('contacts')
@Controller('contacts')
export class BulkController {
  constructor(private readonly bulk: BulkService) {}

  @SecretKey()
  @Post('bulk-subscribe')
  @ApiOperation({ summary: 'Subscribe contacts in bulk' })
  @ApiErrors(422)
  @HttpCode(202)
  @ApiJson(202, { type: 'object', properties: { jobId: { type: 'string', description: 'Poll GET …/{jobId} for progress' }, status: { type: 'string', enum: ['queued'] } } }, 'Bulk job queued')
  subscribe(@CurrentProject() projectId: string, @Body() body: BulkContactsDto): Queued {
    return this.bulk.create(projectId, 'subscribe', body.contactIds);
  }

  @SecretKey()
  @Post('bulk-unsubscribe')
  @ApiOperation({ summary: 'Unsubscribe contacts in bulk' })
  @ApiErrors(422)
  @HttpCode(202)
  @ApiJson(202, { type: 'object', properties: { jobId: { type: 'string', description: 'Poll GET …/{jobId} for progress' }, status: { type: 'string', enum: ['queued'] } } }, 'Bulk job queued')
  unsubscribe(@CurrentProject() projectId: string, @Body() body: BulkContactsDto): Queued {
    return this.bulk.create(projectId, 'unsubscribe', body.contactIds);
  }

  @SecretKey()
  @Post('bulk-delete')
  @ApiOperation({ summary: 'Delete contacts in bulk' })
  @ApiErrors(422)
  @HttpCode(202)
  @ApiJson(202, { type: 'object', properties: { jobId: { type: 'string', description: 'Poll GET …/{jobId} for progress' }, status: { type: 'string', enum: ['queued'] } } }, 'Bulk job queued')
  remove(@CurrentProject() projectId: string, @Body() body: BulkContactsDto): Queued {
    return this.bulk.create(projectId, 'delete', body.contactIds);
  }

  @SecretKey()
  @Get('bulk/:jobId')
  @ApiOperation({ summary: 'Get a bulk job' })
  @ApiErrors(404)
  @ApiJson(200, BulkJobResponse, 'Bulk job progress and per-contact errors')
  get(@CurrentProject() projectId: string, @Param('jobId') jobId: string): Promise<BulkJobResponse> {
    return this.bulk.get(projectId, jobId);
  }
}
