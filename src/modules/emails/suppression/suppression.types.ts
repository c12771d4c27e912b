import type { TemplateType } from '../../templates/entities/template.entity';

/** Persisted in `suppressions.reason`. */
export type SuppressionReason = 'bounce' | 'complaint' | 'manual';
/** Persisted in `suppressions.source`: where the signal came from. */
export type SuppressionSource = 'sns' | 'smtp' | 'api';

export type SkipReason = 'unsubscribed' | 'suppressed';
export type SuppressionCheck = { skip: false } | { skip: true; reason: SkipReason };

export type EmailType = TemplateType;

/** MARKETING and HEADLESS respect unsubscription and suppression; TRANSACTIONAL never skips. */
export const respectsSubscription = (type: EmailType): boolean => type === 'MARKETING' || type === 'HEADLESS';
