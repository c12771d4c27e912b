import { createHash } from 'node:crypto';
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { isEmail } from 'class-validator';
import { simpleParser } from 'mailparser';
import type { SMTPServerAddress, SMTPServerAuthentication, SMTPServerSession } from 'smtp-server';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { AppError } from '../../../platform/http/app-error';
import { CounterStore } from '../../../platform/http/rate-limit/counter-store';
import { hitProjectBudget } from '../../../platform/http/rate-limit/project-rate-limit';
import { DomainsService } from '../../domains';
import { EmailsService } from '../../emails';
import { ProjectsService } from '../../projects';
import { SmtpListeners, type SmtpListenerSpec } from '../smtp-listeners';
import { type SmtpReply, smtpAccepted, smtpReply } from '../smtp-reply';
import { fromOf, messageToSendRequest } from './message-to-send-request';

/** AUTH user names: `mailroom`, and `plunk` for Plunk's relay clients; the password is the project's secret key. */
const USERS = new Set(['mailroom', 'plunk']);
/** Failed AUTHs from one address within a minute after which that address is answered 421 for a minute. */
const MAX_AUTH_FAILURES = 10;
const MINUTE_MS = 60_000;

interface RelayUser {
  projectId: string;
}

const domainOf = (address: string): string => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/**
 * The submission relay (docs/smtp.md): SMTP clients authenticated with a project's secret
 * key submit messages, and each envelope recipient gets its own copy through the `/v1/send`
 * pipeline (`EmailsService.send`: contacts, recipient policy, billing, tracking, DKIM). Listens
 * on `SMTP_SUBMISSION_PORT` (STARTTLS) and `SMTP_SUBMISSION_TLS_PORT` (implicit TLS).
 */
@Injectable()
export class SubmissionRelay implements OnApplicationBootstrap {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly listeners: SmtpListeners,
    private readonly projects: ProjectsService,
    private readonly domains: DomainsService,
    private readonly emails: EmailsService,
    private readonly counters: CounterStore,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const spec: Omit<SmtpListenerSpec, 'name' | 'port'> = {
      options: { authMethods: ['PLAIN', 'LOGIN'], authOptional: false, disabledCommands: [] },
      onConnect: (session) => this.refuseLockedOut(session),
      onAuth: (auth, session) => this.authenticate(auth, session),
      onMailFrom: (address, session) => this.checkSender(address, session),
      onRcptTo: (address, session) => this.checkRecipient(address, session),
      onMessage: (message, session) => this.submit(message, session),
    };
    await this.listeners.open({ ...spec, name: 'submission', port: this.config.smtp.submissionPort });
    await this.listeners.open({ ...spec, name: 'submission-tls', port: this.config.smtp.submissionTlsPort, implicitTls: true });
  }

  private async refuseLockedOut(session: SMTPServerSession): Promise<void> {
    const lock = await this.counters.peek(`smtp-auth-lock:${session.remoteAddress}`);
    if (lock) throw smtpReply(421, '4.7.0', `Too many failed authentications from ${session.remoteAddress}; try again in ${Math.max(1, Math.ceil(lock.resetMs / 1000))} seconds`, 'auth_locked');
  }

  private async authenticate(auth: SMTPServerAuthentication, session: SMTPServerSession): Promise<RelayUser> {
    await this.refuseLockedOut(session);
    if (!session.secure && !this.config.smtp.allowInsecureAuth) throw smtpReply(530, '5.7.0', 'Must issue a STARTTLS command first', 'auth_insecure');
    const key = auth.password ?? '';
    const found = USERS.has((auth.username ?? '').toLowerCase()) && key.length <= 200 ? await this.projects.resolveKey(key) : null;
    if (found?.kind === 'secret') return { projectId: found.projectId };
    const failures = await this.counters.hit(`smtp-auth-fail:${session.remoteAddress}`, MINUTE_MS);
    if (failures.count >= MAX_AUTH_FAILURES) await this.counters.hit(`smtp-auth-lock:${session.remoteAddress}`, MINUTE_MS);
    throw smtpReply(535, '5.7.8', "Authentication credentials invalid: user mailroom (or plunk) with the project's secret key", 'auth_failed');
  }

  private async checkSender(address: SMTPServerAddress, session: SMTPServerSession): Promise<void> {
    const { projectId } = session.user as RelayUser;
    if (!address.address || !isEmail(address.address)) throw smtpReply(553, '5.1.7', 'A sender address on a verified domain of the project is required', 'sender_syntax');
    await this.assertDomain(projectId, address.address);
  }

  private async checkRecipient(address: SMTPServerAddress, session: SMTPServerSession): Promise<void> {
    if (!isEmail(address.address)) throw smtpReply(553, '5.1.3', `Bad recipient address syntax: ${address.address}`, 'recipient_syntax');
    const max = this.config.smtp.maxRecipients;
    if (session.envelope.rcptTo.length >= max) throw smtpReply(452, '4.5.3', `Too many recipients: at most ${max} per message`, 'too_many_recipients');
  }

  private async submit(message: Buffer, session: SMTPServerSession): Promise<string> {
    const { projectId } = session.user as RelayUser;
    const budget = await hitProjectBudget(this.counters, this.config, projectId);
    if (budget.exceeded) throw smtpReply(451, '4.7.1', `Rate limit of ${budget.limit} requests a minute reached; try again in ${Math.max(1, Math.ceil(budget.resetMs / 1000))} seconds`, 'rate_limited');
    // No conversion either way: an HTML-only message gets its text part from the send path's renderer
    // (as `/v1/send` does: in the renderer process, converted once for identical bodies), not from
    // mailparser's html-to-text on this event loop, per message.
    const parsed = await simpleParser(message, { keepCidLinks: true, skipTextToHtml: true, skipHtmlToText: true, skipImageLinks: true });
    const from = fromOf(parsed);
    if (!from) throw smtpReply(550, '5.7.1', 'The message has no From address', 'sender_domain');
    // The From header's domain is checked by the send path itself (`refusal` words its answer), before anything is written.
    const recipients = [...new Set(session.envelope.rcptTo.map((r) => r.address.trim().toLowerCase()))];
    const req = messageToSendRequest(parsed, from, recipients);
    // The Message-ID is the submission's idempotency key: a client retrying a message it already got accepted is answered 250, once.
    const claim = parsed.messageId ? { projectId, key: `smtp:${createHash('sha256').update(parsed.messageId).digest('hex')}`, method: 'SMTP', path: 'DATA' } : undefined;
    try {
      const result = await this.emails.send(projectId, req, claim);
      return smtpAccepted(queuedAs(result.emails.map((e) => e.email)));
    } catch (err) {
      if (err instanceof AppError && err.code === 'IDEMPOTENCY_KEY_REUSED') return smtpAccepted(`${queuedAs(originalIds(err))} (this Message-ID was submitted before; not sent again)`);
      throw this.refusal(err, from.email);
    }
  }

  private async assertDomain(projectId: string, address: string): Promise<void> {
    try {
      await this.domains.assertSenderAllowed(projectId, address);
    } catch (err) {
      if (err instanceof AppError && err.code === 'DOMAIN_NOT_VERIFIED') throw senderDomainRefused(address);
      throw err;
    }
  }

  /** The send path's refusals in SMTP terms; anything else (the database, a bug) is the listener's 451 4.3.0. */
  private refusal(err: unknown, fromEmail: string): unknown {
    if (!(err instanceof AppError)) return err;
    switch (err.code) {
      case 'PROJECT_DISABLED':
        return smtpReply(550, '5.7.1', err.message, 'project_disabled');
      case 'BILLING_LIMIT_EXCEEDED':
        return smtpReply(550, '5.7.1', err.message, 'billing_limit');
      case 'DOMAIN_NOT_VERIFIED':
        return senderDomainRefused(fromEmail);
      case 'VALIDATION_ERROR':
        return smtpReply(552, '5.3.4', 'The message is too big to send once composed', 'too_big');
      default:
        return err;
    }
  }
}

function senderDomainRefused(address: string): SmtpReply {
  return smtpReply(550, '5.7.1', `Sender domain ${domainOf(address)} is not a verified domain of this project`, 'sender_domain');
}

function queuedAs(ids: string[]): string {
  if (ids.length === 0) return 'Ok: nothing queued, every recipient was skipped';
  return ids.length === 1 ? `Ok: queued as ${ids[0]}` : `Ok: queued as ${ids[0]} and ${ids.length - 1} more`;
}

/** The email ids the first submission of a Message-ID answered (the idempotency key's stored answer). */
function originalIds(err: AppError): string[] {
  const details = err.extra.details as { originalResponse?: { data?: { emails?: Array<{ email: string }> } } } | undefined;
  return details?.originalResponse?.data?.emails?.map((e) => e.email) ?? [];
}
