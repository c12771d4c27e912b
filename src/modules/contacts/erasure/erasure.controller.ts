import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../../platform/http/openapi-errors';
import { ApiCursorPage, ApiJson } from '../../../platform/http/openapi-responses';
import type { CursorPage } from '../../../platform/http/pagination';
import { CursorPageQuery } from '../../../platform/http/cursor-page.query';
import { Audited, fromParam } from '../../audit';
import { CurrentPrincipal, CurrentProject, type Principal, SecretKey } from '../../auth';
import { ErasureListItemResponse, ErasureQueuedResponse, ErasureResponse } from './dto/erasure.response';
import { ErasureService } from './erasure.service';

const MANAGERS_ONLY: [403, string] = [403, 'A dashboard session whose role is below ADMIN'];

@ApiTags('contacts')
@Controller('contacts')
@SecretKey()
export class ErasureController {
  constructor(private readonly erasures: ErasureService) {}

  @Get('erasures')
  @ApiOperation({ summary: 'List contact erasures' })
  @ApiErrors([400, 'The cursor is not one this list gave'], MANAGERS_ONLY, 422)
  @ApiCursorPage(ErasureListItemResponse, 'Erasures, newest first (contact ids, never addresses)')
  list(@CurrentPrincipal() principal: Principal, @CurrentProject() projectId: string, @Query() query: CursorPageQuery): Promise<CursorPage<ErasureListItemResponse>> {
    return this.erasures.list(principal, projectId, query);
  }

  @Get('erasures/:jobId')
  @ApiOperation({ summary: 'Get a contact erasure' })
  @ApiErrors(MANAGERS_ONLY, 404)
  @ApiJson(200, ErasureResponse, 'The erasure and its status')
  get(@CurrentPrincipal() principal: Principal, @CurrentProject() projectId: string, @Param('jobId') jobId: string): Promise<ErasureResponse> {
    return this.erasures.get(principal, projectId, jobId);
  }

  @Post(':id/erase')
  @ApiOperation({ summary: "Erase a contact and its personal data (a job); the address is kept only as a salted hash that holds back marketing mail" })
  @ApiErrors(MANAGERS_ONLY, 404)
  @HttpCode(202)
  @ApiJson(202, ErasureQueuedResponse, 'Erasure queued, or the one already under way for the contact')
  @Audited('contact.erased', { target: { type: 'contact', id: fromParam('id') } })
  erase(@CurrentPrincipal() principal: Principal, @CurrentProject() projectId: string, @Param('id') id: string): Promise<ErasureQueuedResponse> {
    return this.erasures.request(principal, projectId, id);
  }
}
