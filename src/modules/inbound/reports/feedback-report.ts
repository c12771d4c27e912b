import { field, parseHeaderBlocks, typedAddress } from './header-blocks';

/** A `message/feedback-report` body (RFC 5965 §3.1). */
export interface FeedbackReport {
  /** `abuse`, `fraud`, `virus`, `other`, `not-spam`, … (lower-cased); `abuse` when absent. */
  feedbackType: string;
  userAgent: string | null;
  originalMailFrom: string | null;
  originalRcptTo: string | null;
  arrivalDate: string | null;
  sourceIp: string | null;
  reportedDomain: string | null;
}

export function parseFeedbackReport(text: string): FeedbackReport {
  const block = parseHeaderBlocks(text)[0];
  return {
    feedbackType: (field(block, 'feedback-type') ?? 'abuse').toLowerCase(),
    userAgent: field(block, 'user-agent'),
    originalMailFrom: typedAddress(field(block, 'original-mail-from')),
    originalRcptTo: typedAddress(field(block, 'original-rcpt-to')),
    arrivalDate: field(block, 'arrival-date') ?? field(block, 'received-date'),
    sourceIp: field(block, 'source-ip'),
    reportedDomain: field(block, 'reported-domain'),
  };
}

/** `not-spam` is a user taking a complaint back, never a complaint. */
export const isComplaint = (report: FeedbackReport): boolean => report.feedbackType !== 'not-spam';
