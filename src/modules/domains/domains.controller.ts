import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audited, fromParam, fromResult } from '../audit';
import { CurrentProject, SecretKey } from '../auth';
import { DomainsService } from './domains.service';
import { CreateDomainDto } from './dto/create-domain.dto';
import { UpdateDomainDto } from './dto/update-domain.dto';
import { DomainResponse } from './dto/domain.response';
import { ApiJson, ApiList, ApiNoContent } from '../../platform/http/openapi-responses';
import { ApiErrors } from '../../platform/http/openapi-errors';
import { ParseUuidPipe } from '../../platform/http/parse-uuid.pipe';
import { domainNotFound } from './domains.errors';

const DomainId = new ParseUuidPipe(domainNotFound);

@ApiTags('domains')
@Controller('domains')
export class DomainsController {
  constructor(private readonly domains: DomainsService) {}

  @SecretKey()
  @Post()
  @Audited('domain.created', { target: { type: 'domain', id: fromResult('id') } })
  @ApiOperation({ summary: 'Add a sender domain' })
  @ApiErrors([409, 'The domain has already been added'], 422)
  @ApiJson(201, DomainResponse, 'The domain and the DNS records to publish')
  create(@CurrentProject() projectId: string, @Body() dto: CreateDomainDto): Promise<DomainResponse> {
    return this.domains.create(projectId, dto.domain);
  }

  @SecretKey()
  @Get('project/:projectId')
  @ApiOperation({ summary: 'List the domains of the project' })
  @ApiErrors([404, 'The path names another project'])
  @ApiList(DomainResponse, 'Domains of the project')
  list(@CurrentProject() projectId: string, @Param('projectId', DomainId) pathProjectId: string): Promise<DomainResponse[]> {
    return this.domains.list(projectId, pathProjectId);
  }

  @SecretKey()
  @Get(':id/verify')
  @ApiOperation({ summary: "Check a domain's DNS records now" })
  @ApiErrors(404)
  @ApiJson(200, DomainResponse, 'The domain after a fresh DNS check')
  verify(@CurrentProject() projectId: string, @Param('id', DomainId) id: string): Promise<DomainResponse> {
    return this.domains.verify(projectId, id);
  }

  @SecretKey()
  @Get(':id')
  @ApiOperation({ summary: 'Get a domain, with where its warm-up stands today' })
  @ApiErrors(404)
  @ApiJson(200, DomainResponse, 'The domain')
  get(@CurrentProject() projectId: string, @Param('id', DomainId) id: string): Promise<DomainResponse> {
    return this.domains.get(projectId, id);
  }

  @SecretKey()
  @Patch(':id')
  @ApiOperation({ summary: "Change a domain's warm-up settings" })
  @ApiErrors(404, 422)
  @ApiJson(200, DomainResponse, 'The domain with its new settings')
  update(@CurrentProject() projectId: string, @Param('id', DomainId) id: string, @Body() dto: UpdateDomainDto): Promise<DomainResponse> {
    return this.domains.update(projectId, id, dto);
  }

  @SecretKey()
  @Delete(':id')
  @Audited('domain.deleted', { target: { type: 'domain', id: fromParam('id') } })
  @ApiOperation({ summary: 'Delete a domain' })
  @ApiErrors(404, [409, 'Templates or campaigns still send from it'])
  @HttpCode(204)
  @ApiNoContent('Deleted')
  async remove(@CurrentProject() projectId: string, @Param('id', DomainId) id: string): Promise<void> {
    await this.domains.remove(projectId, id);
  }
}
