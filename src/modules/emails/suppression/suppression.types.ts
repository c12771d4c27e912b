import type { TemplateType } from '../../templates/entities/template.entity';

/** Persisted in `suppressions.reason`. */
export type SuppressionReason = 'bounce' | 'complaint' | 'manual';
/** Persisted in `suppressions.source`: where the signal came from. */
export type SuppressionSource = 'sns' | 'smtp' | 'api';

export type SkipReason = 'unsubscribed' | 'suppressed';

export type EmailType = TemplateType;

/** The types that respect unsubscription and suppression (also a SQL parameter); TRANSACTIONAL never skips. */
export const SUBSCRIPTION_TYPES: readonly EmailType[] = ['MARKETING', 'HEADLESS'];

export const respectsSubscription = (type: EmailType): boolean => SUBSCRIPTION_TYPES.includes(type);

/**
 * Why a send of `type` to this recipient is skipped, or null. Suppression wins over
 * unsubscription as the reported reason (it is the stronger, address-level signal).
 */
export function skipReason(type: EmailType, recipient: { suppressed: boolean; subscribed: boolean }): SkipReason | null {
  if (!respectsSubscription(type)) return null;
  if (recipient.suppressed) return 'suppressed';
  return recipient.subscribed ? null : 'unsubscribed';
}

/**
 * SQL condition for set-based audience queries (campaign fan-out): true when the contact row
 * aliased `contactAlias` is not on its project's suppression list. Uses the primary key index.
 */
export const notSuppressedSql = (contactAlias: string): string =>
  `NOT EXISTS (SELECT 1 FROM suppressions s WHERE s.project_id = ${contactAlias}.project_id AND s.email = ${contactAlias}.email)`;
