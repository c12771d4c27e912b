import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { SMTPServerAddress, SMTPServerSession } from 'smtp-server';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { CounterStore } from '../../../platform/http/rate-limit/counter-store';
import { SmtpListeners, smtpAccepted, smtpReply } from '../../smtp';
import { InboundService } from '../inbound.service';

/** The listener's name: `/health/ready` shows `smtp-inbound`, `/metrics` labels it `inbound`. */
export const INBOUND_LISTENER = 'inbound';
const MINUTE_MS = 60_000;

/**
 * The MX: `SMTP_INBOUND_PORT` (production 25) on the shared listener foundation, STARTTLS with
 * its certificate, no AUTH. A recipient is accepted when some project receives mail for its
 * domain (a verified domain, a subdomain of one, the bounce subdomain); anything else is 550
 * 5.7.1, so it is never an open relay. The message is handled before the 250: a failure is 451
 * and the sender retries. Its limits (`config.smtp.inbound`: message size, recipients per
 * transaction, messages a minute per MAIL FROM address and per client address, counted in the
 * shared `CounterStore`) are temporary refusals, so a real sender retries later.
 */
@Injectable()
export class InboundListener implements OnApplicationBootstrap {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly listeners: SmtpListeners,
    private readonly inbound: InboundService,
    private readonly counters: CounterStore,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.listeners.open({
      name: INBOUND_LISTENER,
      port: this.config.smtp.inboundPort,
      maxMessageBytes: this.config.smtp.inbound.maxMessageBytes,
      options: { disabledCommands: ['AUTH'], authOptional: true },
      onMailFrom: (address, session) => this.sender(address, session),
      onRcptTo: (address, session) => this.recipient(address, session),
      onMessage: (message, session) => this.message(message, session),
    });
  }

  /** Counts the message against its client address and its sender address (the null sender has none: bounces count per client). */
  private async sender(address: SMTPServerAddress, session: SMTPServerSession): Promise<void> {
    const limits = this.config.smtp.inbound;
    const client = await this.counters.hit(`mx-client:${session.remoteAddress}`, MINUTE_MS);
    if (client.count > limits.perClientPerMinute) throw this.paced(`from ${session.remoteAddress}`, limits.perClientPerMinute, client.resetMs);
    const from = address.address.trim().toLowerCase();
    if (!from) return;
    const sender = await this.counters.hit(`mx-sender:${from}`, MINUTE_MS);
    if (sender.count > limits.perSenderPerMinute) throw this.paced(`from ${from}`, limits.perSenderPerMinute, sender.resetMs);
  }

  private paced(what: string, limit: number, resetMs: number) {
    return smtpReply(451, '4.7.1', `Too many messages ${what}: at most ${limit} a minute; try again in ${Math.max(1, Math.ceil(resetMs / 1000))} seconds`, 'rate_limited');
  }

  private async recipient(address: SMTPServerAddress, session: SMTPServerSession): Promise<void> {
    const max = this.config.smtp.inbound.maxRecipients;
    if (session.envelope.rcptTo.length >= max) throw smtpReply(452, '4.5.3', `Too many recipients: at most ${max} per message`, 'too_many_recipients');
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
