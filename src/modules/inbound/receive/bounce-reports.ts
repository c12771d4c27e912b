import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { logger } from '../../../platform/logging/logger';
import { DeliveryFeedbackService } from '../../deliverability';
import { emailIdOfBounceAddress } from '../../emails';
import { DomainsService } from '../../domains';
import { deliveryOutcome, parseDeliveryStatus } from '../reports/delivery-status';
import { isComplaint, parseFeedbackReport } from '../reports/feedback-report';
import { findReportPart } from '../reports/report-part';

const log = logger('bounce-reports');

/**
 * Reports arriving at a VERP bounce address: a DSN (RFC 3464) or an ARF feedback report (RFC
 * 5965) about the email whose id the address signs. They go through `DeliveryFeedbackService`,
 * the same path (and transaction) as SES's SNS bounces and complaints. An address whose token
 * does not verify, an email that no longer exists, or one of a project that does not own the
 * address's domain changes nothing.
 */
@Injectable()
export class BounceReports {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly feedback: DeliveryFeedbackService,
    private readonly domains: DomainsService,
  ) {}

  async handle(address: string, raw: Buffer): Promise<void> {
    const emailId = emailIdOfBounceAddress(this.config.appSecret, address);
    if (!emailId) return log.info({ address }, 'report to a bounce address whose token does not verify: ignored');
    const email = await this.feedback.findById(emailId);
    if (!email) return log.info({ emailId }, 'report about an unknown email: ignored');
    const owners = await this.domains.projectsReceiving([address.toLowerCase()]);
    if (!owners.has(email.project_id)) return log.info({ emailId }, 'report at a bounce address of another project: ignored');

    const part = findReportPart(raw);
    if (part?.kind === 'delivery-status') {
      const outcome = deliveryOutcome(parseDeliveryStatus(part.text));
      if (outcome.kind === 'none') return;
      const { status, diagnosticCode } = outcome.recipient;
      const data = { status, ...(diagnosticCode ? { diagnosticCode } : {}) };
      if (outcome.kind === 'permanent') {
        return this.feedback.bounced(email, 'Permanent', { source: 'smtp', error: diagnosticCode ?? `Permanent bounce (${status ?? 'no status'})`, data: { bounceSubType: null, ...data } });
      }
      return this.feedback.delayed(email, { source: 'smtp', data });
    }
    if (part?.kind === 'feedback-report') {
      const report = parseFeedbackReport(part.text);
      if (isComplaint(report)) await this.feedback.complained(email, { source: 'smtp', data: { feedbackType: report.feedbackType } });
      return;
    }
    log.info({ emailId }, 'message at a bounce address is neither a DSN nor a feedback report: ignored');
  }
}
