import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentProject, SecretKey } from '../auth/auth.decorators';
import { DomainsService } from './domains.service';
import { CreateDomainDto } from './dto/create-domain.dto';
import type { DomainResponse } from './dto/domain.response';

@ApiTags('domains')
@Controller('domains')
export class DomainsController {
  constructor(private readonly domains: DomainsService) {}

  @SecretKey()
  @Post()
  create(@CurrentProject() projectId: string, @Body() dto: CreateDomainDto): Promise<DomainResponse> {
    return this.domains.create(projectId, dto.domain);
  }

  @SecretKey()
  @Get('project/:projectId')
  list(@CurrentProject() projectId: string, @Param('projectId') pathProjectId: string): Promise<DomainResponse[]> {
    return this.domains.list(projectId, pathProjectId);
  }

  @SecretKey()
  @Get(':id/verify')
  verify(@CurrentProject() projectId: string, @Param('id') id: string): Promise<DomainResponse> {
    return this.domains.verify(projectId, id);
  }

  @SecretKey()
  @Delete(':id')
  @HttpCode(204)
  async remove(@CurrentProject() projectId: string, @Param('id') id: string): Promise<void> {
    await this.domains.remove(projectId, id);
  }
}
