/**
 * Persisted values (`audit_log.action`, `audit_log.target_type`, `audit_log.actor_type`): renaming
 * one strands the entries that carry it. Actions of features still to come are listed already, so
 * the log's filter takes them and their controllers record them with one `@Audited(…)` line.
 */
export const AUDIT_ACTIONS = [
  'project.keys_regenerated',
  'project.settings_updated',
  'member.added',
  'member.removed',
  'member.role_changed',
  'domain.created',
  'domain.deleted',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
  'contact.exported',
  'contacts.exported',
  'contact.erased',
  'campaign.sent',
  'campaign.cancelled',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What an action was done to: the project itself, a member (by user id), or a resource of the project. */
export const AUDIT_TARGET_TYPES = ['project', 'user', 'domain', 'webhook', 'campaign', 'contact', 'contact_export'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** A dashboard session acts as its user; the API acts as the project's secret key. */
export const AUDIT_ACTOR_TYPES = ['user', 'key'] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

/** How long entries are kept. */
export const AUDIT_RETENTION_DAYS = 365;
