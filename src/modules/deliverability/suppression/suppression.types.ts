import type { TemplateType } from '../../templates';

/** Persisted in `suppressions.reason`. */
export type SuppressionReason = 'bounce' | 'complaint' | 'manual';
/** Persisted in `suppressions.source`: where the signal came from. */
export type SuppressionSource = 'sns' | 'smtp' | 'api';

export type EmailType = TemplateType;
