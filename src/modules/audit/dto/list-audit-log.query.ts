import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, IsString, Matches } from 'class-validator';
import { CursorPageQuery } from '../../../platform/http/cursor-page.query';
import { AUDIT_ACTIONS, type AuditAction } from '../audit-actions';

/** An actor's id: a user's (UUID) or a secret key's (`sk_` and the 7 characters of its prefix). */
export const ACTOR_ID = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|sk_[0-9a-f]{7})$/i;

export class ListAuditLogQuery extends CursorPageQuery {
  @ApiPropertyOptional({ description: 'Only entries of this action', enum: AUDIT_ACTIONS })
  @IsOptional()
  @IsIn(AUDIT_ACTIONS, { message: `action must be one of ${AUDIT_ACTIONS.join(', ')}` })
  action?: AuditAction;

  @ApiPropertyOptional({ description: "Only entries of this actor: a user's id, or a secret key's id (`sk_…`, the key's `secretPrefix`)", type: String })
  @IsOptional()
  @IsString()
  @Matches(ACTOR_ID, { message: "actorId must be a user's id (UUID) or a secret key's id (sk_ and 7 hex characters)" })
  actorId?: string;

  @ApiPropertyOptional({ description: 'Only entries at or after this time (ISO 8601)', type: String, format: 'date-time' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'from must be an ISO 8601 date or date-time' })
  from?: string;

  @ApiPropertyOptional({ description: 'Only entries at or before this time (ISO 8601)', type: String, format: 'date-time' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'to must be an ISO 8601 date or date-time' })
  to?: string;
}
