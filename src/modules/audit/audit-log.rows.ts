import type { AuditAction, AuditActorType, AuditTargetType } from './audit-actions';

/** An entry to write. */
export interface NewAuditEntry {
  projectId: string;
  actorType: AuditActorType;
  actorId: string;
  actorEmail: string | null;
  action: AuditAction;
  targetType: AuditTargetType;
  targetId: string;
  changes: string[] | null;
  ip: string | null;
}

/** An entry as the list reads it; `atKey` is `at` at full precision, the cursor's sort value. */
export interface AuditEntryRow extends Omit<NewAuditEntry, 'projectId'> {
  id: string;
  at: Date;
  atKey: string;
}

/** The list's filters, checked: `from` ≤ at ≤ `to` (to the millisecond, as the list shows `at`). */
export interface AuditFilter {
  action?: AuditAction;
  actorId?: string;
  from?: Date;
  to?: Date;
}
