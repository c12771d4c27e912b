import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AUDIT_ACTIONS, AUDIT_ACTOR_TYPES, AUDIT_TARGET_TYPES, type AuditAction, type AuditActorType, type AuditTargetType } from '../audit-actions';
import type { AuditEntryRow } from '../audit-log.rows';

export class AuditActorResponse {
  @ApiProperty({ description: 'user: a dashboard session; key: the secret key', enum: AUDIT_ACTOR_TYPES })
  type!: AuditActorType;
  @ApiProperty({ description: "The user's id, or the secret key's id (its prefix, as `secretPrefix` shows it)", type: String })
  id!: string;
  @ApiPropertyOptional({ description: "The user's email address at the time (users only)", type: String })
  email?: string;
}

export class AuditTargetResponse {
  @ApiProperty({ description: 'What was acted on (user: a member, by user id)', enum: AUDIT_TARGET_TYPES })
  type!: AuditTargetType;
  @ApiProperty({ description: 'Its id', type: String })
  id!: string;
}

export class AuditEntryResponse {
  @ApiProperty({ description: 'Identifier (UUID)', type: String })
  id!: string;
  @ApiProperty({ description: 'Who did it', type: () => AuditActorResponse })
  actor!: AuditActorResponse;
  @ApiProperty({ description: 'What was done', enum: AUDIT_ACTIONS })
  action!: AuditAction;
  @ApiProperty({ description: 'What it was done to', type: () => AuditTargetResponse })
  target!: AuditTargetResponse;
  @ApiPropertyOptional({ description: 'The names of the settings changed (project.settings_updated)', type: [String] })
  changes?: string[];
  @ApiProperty({ description: 'When (ISO 8601)', type: String })
  at!: string;
  @ApiProperty({ description: 'The client address', type: String, nullable: true })
  ip!: string | null;
}

export const toAuditEntryResponse = (row: AuditEntryRow): AuditEntryResponse => ({
  id: row.id,
  actor: { type: row.actorType, id: row.actorId, ...(row.actorEmail !== null ? { email: row.actorEmail } : {}) },
  action: row.action,
  target: { type: row.targetType, id: row.targetId },
  ...(row.changes !== null ? { changes: row.changes } : {}),
  at: row.at.toISOString(),
  ip: row.ip,
});
