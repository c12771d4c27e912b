import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { SystemMailer, SystemMessage } from '../../../platform/mail/system-mailer';
import { EmailQueueFacade } from '../email-queue.facade';

/** `SYSTEM_FROM` as address and display name ("Mailroom <no-reply@localhost>" or a bare address). */
export function parseSystemFrom(value: string): { email: string; name: string | null } {
  const angle = /^(.*)<([^<>]+)>\s*$/.exec(value.trim());
  if (!angle) return { email: value.trim().toLowerCase(), name: null };
  return { email: angle[2].trim().toLowerCase(), name: angle[1].trim().replace(/^"(.*)"$/, '$1') || null };
}

/**
 * Account mail (verification, password reset) through the real pipeline, written by the emails
 * façade like every email (`EmailQueueFacade.queueSystemMail`): an `emails` row with no project,
 * TRANSACTIONAL, untracked, from `SYSTEM_FROM`; the outbox transport still writes
 * `$DATA_DIR/outbox/<emailId>.eml`. The subject and HTML arrive final and are not read as Liquid.
 */
@Injectable()
export class PipelineSystemMailer extends SystemMailer {
  private readonly from: { email: string; name: string | null };

  constructor(
    @InjectConfig() config: AppConfig,
    private readonly emails: EmailQueueFacade,
  ) {
    super();
    this.from = parseSystemFrom(config.email.systemFrom);
  }

  async send(msg: SystemMessage): Promise<void> {
    await this.emails.queueSystemMail(this.from, msg);
  }
}
