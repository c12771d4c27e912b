import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { SMTPServerAddress, SMTPServerSession } from 'smtp-server';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { SmtpListeners, smtpAccepted, smtpReply } from '../../smtp';
import { InboundService } from '../inbound.service';

/** The listener's name: `/health/ready` shows `smtp-inbound`, `/metrics` labels it `inbound`. */
export const INBOUND_LISTENER = 'inbound';

/**
 * The MX: `SMTP_INBOUND_PORT` (production 25) on the shared listener foundation, STARTTLS with
 * its certificate, no AUTH. A recipient is accepted when some project receives mail for its
 * domain (a verified domain, a subdomain of one, the bounce subdomain); anything else is 550
 * 5.7.1, so it is never an open relay. The message is handled before the 250: a failure is 451
 * and the sender retries.
 */
@Injectable()
export class InboundListener implements OnApplicationBootstrap {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly listeners: SmtpListeners,
    private readonly inbound: InboundService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.listeners.open({
      name: INBOUND_LISTENER,
      port: this.config.smtp.inboundPort,
      options: { disabledCommands: ['AUTH'], authOptional: true },
      onRcptTo: (address) => this.recipient(address),
      onMessage: (message, session) => this.message(message, session),
    });
  }

  private async recipient(address: SMTPServerAddress): Promise<void> {
    if (await this.inbound.acceptsRecipient(address.address)) return;
    const domain = address.address.slice(address.address.lastIndexOf('@') + 1);
    throw smtpReply(550, '5.7.1', `Relaying denied: ${domain || address.address} is not a domain received here`, 'relay_denied');
  }

  private async message(raw: Buffer, session: SMTPServerSession): Promise<string> {
    const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
    await this.inbound.receive(
      { mailFrom, recipients: session.envelope.rcptTo.map((r) => r.address), remoteAddress: session.remoteAddress, helo: session.hostNameAppearsAs ?? '' },
      raw,
    );
    return smtpAccepted('Ok: received');
  }
}
