import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentProject, SecretKey } from '../auth/auth.decorators';

/** Authenticated no-op: lets a client check its key, and is the baseline of the HTTP benchmarks. */
@ApiTags('public api')
@Controller('v1/ping')
export class PingController {
  @SecretKey()
  @Get()
  ping(@CurrentProject() projectId: string): { success: true; data: { projectId: string } } {
    return { success: true, data: { projectId } };
  }
}
