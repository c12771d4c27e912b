import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentProject, SecretKey } from '../auth';
import { ApiEnvelope } from '../../platform/http/openapi-responses';

/** Authenticated no-op: lets a client check its key, and is the baseline of the HTTP benchmarks. */
@ApiTags('ping')
@Controller('v1/ping')
export class PingController {
  @SecretKey()
  @Get()
  @ApiOperation({ summary: 'Check the API key' })
  @ApiEnvelope(200, { type: 'object', properties: { projectId: { type: 'string' } } }, 'The key is valid; the project it belongs to')
  ping(@CurrentProject() projectId: string): { success: true; data: { projectId: string } } {
    return { success: true, data: { projectId } };
  }
}
