import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { logger } from '../../platform/logging/logger';
import { BillingLimitExceeded, BillingService } from '../billing';
import { ContactsService, normalizeEmail } from '../contacts';
import { isBounceAddress } from '../emails';
import { DomainsService } from '../domains';
import { EventsService } from '../events';
import type { ImageStorage } from '../uploads';
import { InboundMessageResponse, toInboundMessageResponse } from './dto/inbound-message.response';
import { inboundNotFound } from './inbound.errors';
import { InboundRepository } from './inbound.repository';
import { BounceReports } from './receive/bounce-reports';
import { MailAuth, type AuthVerdicts } from './receive/mail-auth';
import { parseInbound } from './receive/parsed-message';

export const INBOUND_STORAGE = Symbol('INBOUND_STORAGE');

const log = logger('inbound');
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** One SMTP transaction's envelope, as the listener received it. */
export interface InboundEnvelope {
  /** MAIL FROM; '' for the null sender. */
  mailFrom: string;
  /** RCPT TO, each accepted by `acceptsRecipient`. */
  recipients: string[];
  remoteAddress: string;
  helo: string;
}

/**
 * Mail received on SMTP_INBOUND_PORT. Ordinary mail becomes, for each project owning a
 * recipient's domain, its raw bytes in storage, an `inbound_messages` row and an `email.received`
 * event on the sender's contact (created unsubscribed), counted as `inbound` for billing; the
 * rows, contacts, events and counts of all its projects are one transaction, so the event outbox carries it to webhooks
 * and workflows only once it committed. Mail to a VERP bounce address is a report (`BounceReports`).
 */
@Injectable()
export class InboundService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(INBOUND_STORAGE) private readonly storage: ImageStorage,
    private readonly repository: InboundRepository,
    private readonly domains: DomainsService,
    private readonly mailAuth: MailAuth,
    private readonly contacts: ContactsService,
    private readonly events: EventsService,
    private readonly billing: BillingService,
    private readonly reports: BounceReports,
  ) {}

  /** Whether some project receives mail for the address (a verified domain or its subdomain, the bounce subdomain included). */
  async acceptsRecipient(address: string): Promise<boolean> {
    const bare = normalizeEmail(address);
    if (!EMAIL.test(bare)) return false;
    return (await this.domains.projectsReceiving([bare])).size > 0;
  }

  async receive(envelope: InboundEnvelope, raw: Buffer): Promise<void> {
    // A bounce address keeps its case: its token is base64url.
    const bounces = [...new Set(envelope.recipients.map((r) => r.trim()).filter(isBounceAddress))];
    for (const address of bounces) await this.reports.handle(address, raw);
    const ordinary = [...new Set(envelope.recipients.filter((r) => !isBounceAddress(r)).map(normalizeEmail))];
    if (ordinary.length === 0) return;
    const byProject = await this.domains.projectsReceiving(ordinary);
    if (byProject.size === 0) return;

    const parsed = await parseInbound(raw);
    const mailFrom = envelope.mailFrom ? normalizeEmail(envelope.mailFrom) : null;
    const verdicts = await this.mailAuth.verdicts(raw, { ip: envelope.remoteAddress, helo: envelope.helo, sender: envelope.mailFrom, mta: hostname() });
    const sender = [parsed.from, mailFrom].find((a): a is string => !!a && EMAIL.test(a)) ?? null;

    // Every project's record in one transaction (a savepoint each, so one over its inbound limit
    // drops only its own): a failure leaves no project recorded and the sender's retry records
    // each once. Projects in id order, so concurrent messages take the billing rows' locks in the
    // same order.
    const entries = [...byProject].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([projectId, to]) => ({ projectId, to, id: randomUUID() }));
    const stored: string[] = [];
    try {
      for (const entry of entries) {
        await this.storage.put(`${entry.id}.eml`, raw, 'message/rfc822');
        stored.push(`${entry.id}.eml`);
      }
      const dropped = await this.dataSource.transaction(async (em) => {
        const over: string[] = [];
        for (const { projectId, to, id } of entries) {
          try {
            await em.transaction((sp) => this.record(sp, { projectId, to, id, raw, parsed, mailFrom, sender, verdicts }));
          } catch (err) {
            if (!(err instanceof BillingLimitExceeded)) throw err;
            log.warn({ projectId, messageId: parsed.messageId }, 'inbound mail over the monthly inbound limit: not recorded');
            over.push(`${id}.eml`);
          }
        }
        return over;
      });
      await this.dropStored(dropped);
    } catch (err) {
      await this.dropStored(stored);
      throw err;
    }
  }

  /** One project's row, sender contact, `email.received` event and inbound count, in `em`. */
  private async record(
    em: EntityManager,
    r: { projectId: string; to: string[]; id: string; raw: Buffer; parsed: Awaited<ReturnType<typeof parseInbound>>; mailFrom: string | null; sender: string | null; verdicts: AuthVerdicts },
  ): Promise<void> {
    const { projectId, id, parsed, verdicts } = r;
    const contact = r.sender ? (await this.contacts.upsert(projectId, { email: r.sender, defaultSubscribed: false, source: 'system' }, em)).contact : null;
    await this.repository.insert(
      { id, projectId, contactId: contact?.id ?? null, storageKey: `${id}.eml`, size: r.raw.length, mailFrom: r.mailFrom, recipients: r.to, fromAddress: parsed.from, subject: parsed.subject, messageId: parsed.messageId, ...verdicts },
      em,
    );
    const data = {
      inboundId: id,
      emailId: null,
      templateId: null,
      campaignId: null,
      from: parsed.from ?? r.mailFrom,
      to: parsed.to,
      cc: parsed.cc,
      subject: parsed.subject,
      messageId: parsed.messageId,
      inReplyTo: parsed.inReplyTo,
      text: parsed.text,
      attachments: parsed.attachments,
      ...verdicts,
    };
    await this.events.record(projectId, { contactId: contact?.id ?? null, name: 'email.received', data }, em);
    // Last: the count locks the project's billing row until the commit, so concurrent messages queue only there.
    await this.billing.consume(em, projectId, 'inbound', 1);
  }

  private async dropStored(keys: string[]): Promise<void> {
    await Promise.all(keys.map((storageKey) => this.storage.delete(storageKey).catch((e: unknown) => log.warn({ err: e, storageKey }, 'removing the raw message of an unrecorded receipt failed'))));
  }

  async findOne(projectId: string, id: string): Promise<InboundMessageResponse> {
    return toInboundMessageResponse(await this.row(projectId, id));
  }

  /** The message's bytes as received. */
  async raw(projectId: string, id: string): Promise<Buffer> {
    const row = await this.row(projectId, id);
    const object = await this.storage.get(row.storageKey);
    if (!object) throw inboundNotFound();
    return object.bytes;
  }

  /** Drops a batch of the project's messages received in `range` (past its retention): raw first, then rows; answers how many. */
  async pruneReceived(projectId: string, range: { from: Date | null; before: Date }, limit: number): Promise<number> {
    const rows = await this.repository.receivedIn(projectId, range, limit);
    if (rows.length === 0) return 0;
    await Promise.all(rows.map((r) => this.storage.delete(r.storage_key)));
    await this.repository.deleteMany(projectId, rows.map((r) => r.id));
    return rows.length;
  }

  /**
   * Deletes the messages received from a contact (its erasure): their raw bytes first, then the
   * rows, so a crash in between leaves rows whose bytes a second run deletes again, never bytes
   * no row names.
   */
  async eraseFromContact(projectId: string, contact: { id: string; email: string }, manager?: EntityManager): Promise<void> {
    const rows = await this.repository.keysFromContact(projectId, contact, manager);
    if (rows.length === 0) return;
    await Promise.all(rows.map((r) => this.storage.delete(r.storage_key)));
    await this.repository.deleteMany(projectId, rows.map((r) => r.id), manager);
  }

  private async row(projectId: string, id: string) {
    const row = await this.repository.findOne(projectId, id);
    if (!row) throw inboundNotFound();
    return row;
  }
}
