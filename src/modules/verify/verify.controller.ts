import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { SecretKey } from '../auth';
import { VerifyEmailResult } from './dto/verify-email.response';
import { VerifyEmailDto } from './dto/verify-email.dto';
import { VerifyService } from './verify.service';
import { ApiEnvelope } from '../../platform/http/openapi-responses';
import { ApiErrors } from '../../platform/http/openapi-errors';

@ApiTags('verify')
@Controller('v1/verify')
export class VerifyController {
  constructor(private readonly verifier: VerifyService) {}

  /** 200, not 201: checking an address creates nothing. */
  @SecretKey()
  @Post()
  @ApiOperation({ summary: 'Check an email address' })
  @ApiErrors(422)
  @HttpCode(200)
  @ApiEnvelope(200, VerifyEmailResult, 'Checks of the address')
  async verify(@Body() dto: VerifyEmailDto): Promise<{ success: true; data: VerifyEmailResult }> {
    return { success: true, data: await this.verifier.verify(dto.email) };
  }
}
