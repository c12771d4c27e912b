import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiErrors } from '../../platform/http/openapi-errors';
import { ApiJson } from '../../platform/http/openapi-responses';
import { CurrentProject, SecretKey } from '../auth';
import { InboundMessageResponse } from './dto/inbound-message.response';
import { InboundService } from './inbound.service';
import { ParseUuidPipe } from '../../platform/http/parse-uuid.pipe';
import { inboundNotFound } from './inbound.errors';

const InboundId = new ParseUuidPipe(inboundNotFound);

@ApiTags('inbound')
@Controller('inbound')
@SecretKey()
export class InboundController {
  constructor(private readonly inbound: InboundService) {}

  @Get(':id')
  @ApiOperation({ summary: 'Get a received message' })
  @ApiErrors(404)
  @ApiJson(200, InboundMessageResponse, "The message's record with its SPF, DKIM and DMARC verdicts; another project's message is a 404")
  findOne(@CurrentProject() projectId: string, @Param('id', InboundId) id: string): Promise<InboundMessageResponse> {
    return this.inbound.findOne(projectId, id);
  }

  @Get(':id/raw')
  @ApiOperation({ summary: 'Get a received message as received' })
  @ApiErrors(404)
  @ApiResponse({ status: 200, description: 'The raw message, byte for byte', content: { 'message/rfc822': { schema: { type: 'string', format: 'binary' } } } })
  async raw(@CurrentProject() projectId: string, @Param('id', InboundId) id: string, @Res() res: Response): Promise<void> {
    const bytes = await this.inbound.raw(projectId, id);
    res.status(200).set({ 'Content-Type': 'message/rfc822', 'Content-Length': String(bytes.length), 'X-Content-Type-Options': 'nosniff' }).end(bytes);
  }
}
