/** Reasons a recipient of a send got no email (persisted in nothing; wire values). */
export type SkipReason = 'unsubscribed' | 'suppressed';

export interface SkippedRecipient {
  to: string;
  reason: SkipReason;
}

/** The spec's send result; `skipped` is always present (decisions / interfaces). */
export interface SendResult {
  emails: Array<{ contact: { id: string; email: string }; email: string }>;
  skipped: SkippedRecipient[];
  timestamp: string;
}
