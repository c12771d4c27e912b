import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SystemMailer, SystemMessage } from '../../../platform/mail/system-mailer';
import { EmailQueue } from '../engine/email-queue';
import { EmailsRepository } from '../emails.repository';

/** `SYSTEM_FROM` as address and display name ("Mailroom <no-reply@localhost>" or a bare address). */
export function parseSystemFrom(value: string): { email: string; name: string | null } {
  const angle = /^(.*)<([^<>]+)>\s*$/.exec(value.trim());
  if (!angle) return { email: value.trim().toLowerCase(), name: null };
  return { email: angle[2].trim().toLowerCase(), name: angle[1].trim().replace(/^"(.*)"$/, '$1') || null };
}

/**
 * Account mail (verification, password reset) through the real pipeline: an `emails` row with
 * no project, TRANSACTIONAL, untracked, from `SYSTEM_FROM`; the outbox transport still writes
 * `$DATA_DIR/outbox/<emailId>.eml`. The subject and HTML arrive final and are not read as Liquid.
 */
@Injectable()
export class PipelineSystemMailer extends SystemMailer {
  private readonly from: { email: string; name: string | null };

  constructor(
    @InjectConfig() config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly emails: EmailsRepository,
    private readonly queue: EmailQueue,
  ) {
    super();
    this.from = parseSystemFrom(config.email.systemFrom);
  }

  async send(msg: SystemMessage): Promise<void> {
    // No project, so no recipient policy and no tracking: written here rather than through the project façade.
    const [ids] = await this.emails.insertContentsAndEmails(this.dataSource.manager, [
      {
        content: { projectId: null, templateId: null, subject: msg.subject, body: msg.html, text: msg.text, liquid: false, fromName: this.from.name, replyTo: null },
        emails: { projectId: null, templateId: null, type: 'TRANSACTIONAL', fromAddress: this.from.email, trackOpens: false, trackClicks: false },
        recipients: [{ contactId: null, toAddress: msg.to.trim().toLowerCase(), toName: null, variables: null }],
      },
    ]);
    await this.queue.enqueueOrLeaveForSweep(ids, 'TRANSACTIONAL');
  }
}
