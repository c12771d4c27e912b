import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Public } from '../../auth';
import { SnsReceipt, SnsService } from './sns.service';

@ApiTags('webhooks')
@Controller('webhooks')
export class SnsController {
  constructor(private readonly sns: SnsService) {}

  /** Public by necessity: authenticity comes from the SNS message signature, checked in the service. */
  @Public()
  @Post('sns')
  @HttpCode(200)
  @ApiExcludeEndpoint()
  receive(@Req() req: Request): Promise<SnsReceipt> {
    return this.sns.receive(req.body);
  }
}
