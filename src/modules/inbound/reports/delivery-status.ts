import { field, HeaderBlock, parseHeaderBlocks, typedAddress } from './header-blocks';

export interface RecipientStatus {
  /** Final-Recipient (else Original-Recipient), bare and lower-cased. */
  recipient: string | null;
  /** `failed`, `delayed`, `delivered`, `relayed` or `expanded` (lower-cased). */
  action: string | null;
  /** The enhanced status code `class.subject.detail` (RFC 3463), e.g. `5.1.1`. */
  status: string | null;
  diagnosticCode: string | null;
  remoteMta: string | null;
}

export interface DeliveryStatus {
  reportingMta: string | null;
  recipients: RecipientStatus[];
}

/** What a report says about our email: a permanent failure, a delay, or nothing to act on. */
export type DeliveryOutcome = { kind: 'permanent' | 'delayed'; recipient: RecipientStatus } | { kind: 'none' };

const STATUS = /^([245])\.(\d{1,3})\.(\d{1,3})/;

/** A `message/delivery-status` body (RFC 3464): the per-message block, then a block per recipient. */
export function parseDeliveryStatus(text: string): DeliveryStatus {
  const blocks = parseHeaderBlocks(text);
  const perMessage = blocks.find((b) => !isRecipientBlock(b));
  return { reportingMta: typedAddress(field(perMessage, 'reporting-mta')), recipients: blocks.filter(isRecipientBlock).map(recipientStatus) };
}

function isRecipientBlock(block: HeaderBlock): boolean {
  return block.has('final-recipient') || block.has('original-recipient') || block.has('action');
}

function recipientStatus(block: HeaderBlock): RecipientStatus {
  const status = STATUS.exec(field(block, 'status') ?? '');
  return {
    recipient: typedAddress(field(block, 'final-recipient') ?? field(block, 'original-recipient')),
    action: field(block, 'action')?.toLowerCase().split(/[\s(]/)[0] ?? null,
    status: status ? `${status[1]}.${status[2]}.${status[3]}` : null,
    diagnosticCode: field(block, 'diagnostic-code'),
    remoteMta: typedAddress(field(block, 'remote-mta')),
  };
}

/**
 * A failed recipient with a 5.x.x status is a permanent bounce; a delayed one (or a failed one
 * with a 4.x.x status, as some servers write) a delay. A failure with no status at all counts as
 * permanent (the action is the RFC's required field). Permanent wins when there are several.
 */
export function deliveryOutcome(report: DeliveryStatus): DeliveryOutcome {
  const permanent = report.recipients.find((r) => r.action === 'failed' && (r.status === null || r.status.startsWith('5.')));
  if (permanent) return { kind: 'permanent', recipient: permanent };
  const delayed = report.recipients.find((r) => r.action === 'delayed' || (r.action === 'failed' && r.status?.startsWith('4.')));
  if (delayed) return { kind: 'delayed', recipient: delayed };
  return { kind: 'none' };
}
