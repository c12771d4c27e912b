import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../platform/http/openapi-errors';
import { ApiCursorPage } from '../../platform/http/openapi-responses';
import type { CursorPage } from '../../platform/http/pagination';
import { CurrentPrincipal, CurrentProject, type Principal, SecretKey } from '../auth';
import { AuditLogService } from './audit-log.service';
import { AuditEntryResponse } from './dto/audit-entry.response';
import { ListAuditLogQuery } from './dto/list-audit-log.query';

@ApiTags('audit-log')
@Controller('audit-log')
@SecretKey()
export class AuditLogController {
  constructor(private readonly audit: AuditLogService) {}

  @Get()
  @ApiOperation({ summary: 'List the audit log' })
  @ApiErrors([400, 'The cursor is not one this list gave'], [403, 'A dashboard session whose role is below ADMIN'], [422, 'An unknown action, a malformed actorId, a bad date, or from after to'])
  @ApiCursorPage(AuditEntryResponse, 'Who did what to the project, newest first (kept one year)')
  list(@CurrentPrincipal() principal: Principal, @CurrentProject() projectId: string, @Query() query: ListAuditLogQuery): Promise<CursorPage<AuditEntryResponse>> {
    return this.audit.list(principal, projectId, query);
  }
}
