import type { AddressInfo, Socket } from 'node:net';
import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { SMTPServer, type SMTPServerAddress, type SMTPServerAuthentication, type SMTPServerDataStream, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';
import type { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { ReadinessRegistry } from '../../platform/health/readiness.registry';
import { logger } from '../../platform/logging/logger';
import { appMetrics } from '../../platform/metrics/metrics';
import { isSmtpReply, smtpReply } from './smtp-reply';
import { SmtpTls } from './smtp-tls';

/** Messages up to 40 MB (SIZE is advertised; a larger one is refused 552 5.3.4 without being kept). */
export const SMTP_MAX_MESSAGE_BYTES = 40 * 1024 * 1024;
/** Sessions one listener serves at once in one process; the next is answered 421. */
const MAX_CLIENTS = 500;
/** On shutdown: how long open sessions may finish before they are told 421 and closed. */
const CLOSE_GRACE_MS = 3_000;

/** A listener's application part, promise style: resolve to go on, throw `smtpReply(...)` to refuse. */
export interface SmtpHandlers {
  onConnect?(session: SMTPServerSession): Promise<void>;
  /** Resolves the authenticated user (smtp-server puts it in `session.user`). */
  onAuth?(auth: SMTPServerAuthentication, session: SMTPServerSession): Promise<unknown>;
  onMailFrom?(address: SMTPServerAddress, session: SMTPServerSession): Promise<void>;
  onRcptTo?(address: SMTPServerAddress, session: SMTPServerSession): Promise<void>;
  /** The whole message (at most the listener's size limit); resolves the text after `250 ` (see `smtpAccepted`). */
  onMessage(message: Buffer, session: SMTPServerSession): Promise<string>;
}

export interface SmtpListenerSpec extends SmtpHandlers {
  /** Label of the listener on /metrics, in `/health/ready` (`smtp-<name>`) and in logs. */
  name: string;
  /** Unset: the listener is off. 0 takes a free port (tests). */
  port: number | undefined;
  /** TLS from the first byte (submissions on 465); otherwise STARTTLS is offered. */
  implicitTls?: boolean;
  /** The largest message this listener takes (SIZE advertises it; larger is 552 5.3.4); default and ceiling SMTP_MAX_MESSAGE_BYTES. */
  maxMessageBytes?: number;
  /** smtp-server's protocol options the application chooses. */
  options?: Pick<SMTPServerOptions, 'authMethods' | 'authOptional' | 'disabledCommands' | 'banner'>;
}

export interface SmtpListener {
  readonly name: string;
  /** The port it listens on (the one taken when the spec said 0). */
  readonly port: number;
}

interface Open {
  listener: SmtpListener;
  server: SMTPServer;
  /** Messages being handled: shutdown waits for them, so none is cut between its rows and its answer. */
  handling: Set<Promise<unknown>>;
}

/**
 * The SMTP listeners of this process (docs/smtp.md), used by the submission relay and inbound
 * mail. A feature opens its listener at bootstrap:
 *
 *   const listener = await listeners.open({ name: 'submission', port: config.smtp.submissionPort,
 *     options: { authMethods: ['PLAIN', 'LOGIN'] }, onAuth, onMailFrom, onRcptTo, onMessage });
 *
 * `open` answers undefined where the port is unset or the process serves no listeners
 * (`ROLE=worker`; `api` and `all` do, and copies started by `PROCESSES=N` share the port through
 * node:cluster like the HTTP one). This part owns what every listener shares: TLS (SmtpTls,
 * re-read per connection when the files changed), connection limit, idle and whole-session
 * timeouts, the 40 MB size limit, `/health/ready` (`smtp-<name>`), the `/metrics` counters
 * (sessions, messages, refusals by reason, per listener) and closing on shutdown (after the
 * messages being handled are answered). Handler errors made with `smtpReply` are the reply; any
 * other error is logged and answered 451 4.3.0.
 */
@Injectable()
export class SmtpListeners implements OnModuleDestroy {
  private readonly log = logger('smtp');
  private readonly open_ = new Map<string, Open>();
  private closing = false;

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly tls: SmtpTls,
    private readonly readiness: ReadinessRegistry,
  ) {}

  /** Whether this process serves SMTP listeners at all (`ROLE=api` or `all`). */
  get servesListeners(): boolean {
    return this.config.role !== 'worker';
  }

  /** The listener of that name, when open in this process. */
  get(name: string): SmtpListener | undefined {
    return this.open_.get(name)?.listener;
  }

  async open(spec: SmtpListenerSpec): Promise<SmtpListener | undefined> {
    if (spec.port === undefined || !this.servesListeners || this.closing) return undefined;
    if (this.open_.has(spec.name)) throw new Error(`SMTP listener ${spec.name} is already open`);
    const material = await this.tls.load();
    const handling = new Set<Promise<unknown>>();
    const sessions = new Set<string>();
    const name = spec.name;
    const maxBytes = Math.min(spec.maxMessageBytes ?? SMTP_MAX_MESSAGE_BYTES, SMTP_MAX_MESSAGE_BYTES);
    const server: SMTPServer = new SMTPServer({
      ...spec.options,
      name: new URL(this.config.publicUrl).hostname,
      secure: spec.implicitTls ?? false,
      key: material.key,
      cert: material.cert,
      size: maxBytes,
      // Our refusals carry their own enhanced code (smtpReply); smtp-server's table would add a second, often different, one.
      hideENHANCEDSTATUSCODES: true,
      // The application refuses AUTH before TLS itself (530 5.7.0, the contract's code; smtp-server's is 538).
      allowInsecureAuth: true,
      authRequiredMessage: '5.7.0 Authentication required',
      disableReverseLookup: true,
      logger: false,
      maxClients: MAX_CLIENTS,
      socketTimeout: this.config.smtp.idleTimeoutMs,
      closeTimeout: CLOSE_GRACE_MS,
      onConnect: (session, done) => {
        sessions.add(session.id);
        appMetrics.smtpSession(name, 1);
        this.settle(name, () => spec.onConnect?.(session), done);
      },
      onClose: (session) => {
        if (sessions.delete(session.id)) appMetrics.smtpSession(name, -1);
      },
      onAuth: (auth, session, done) =>
        this.settle(
          name,
          async () => {
            if (!spec.onAuth) throw smtpReply(502, '5.5.1', 'Authentication is not offered here', 'auth_unsupported');
            return { user: await spec.onAuth(auth, session) };
          },
          done,
        ),
      onMailFrom: (address, session, done) => this.settle(name, () => spec.onMailFrom?.(address, session), done),
      onRcptTo: (address, session, done) => this.settle(name, () => spec.onRcptTo?.(address, session), done),
      onData: (stream, session, done) => this.receive(name, spec, maxBytes, stream, session, handling, done),
    });
    // A client's broken handshake or dropped socket: its own business, not the service's.
    server.on('error', (err) => this.log.debug({ err, listener: name }, 'SMTP connection error'));
    // Before smtp-server's own handler, so an implicit-TLS handshake already uses a renewed certificate.
    server.server.prependListener('connection', (socket: Socket) => this.guard(server, socket));
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(spec.port, this.config.host, () => {
        server.server.off('error', reject);
        resolve();
      });
    });
    const port = (server.server.address() as AddressInfo).port;
    const listener: SmtpListener = { name, port };
    this.open_.set(name, { listener, server, handling });
    this.readiness.register(`smtp-${name}`, async () => {
      if (!server.server.listening) throw new Error(`SMTP listener ${name} is not listening`);
      return { port, sessions: sessions.size };
    });
    this.log.info({ listener: name, port, implicitTls: spec.implicitTls ?? false }, `SMTP ${name} listening`);
    return listener;
  }

  /** Stops accepting, lets open sessions finish for a moment (then 421), and waits for the messages being handled. */
  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    await Promise.all(
      [...this.open_.values()].map(async ({ listener, server, handling }) => {
        this.readiness.unregister(`smtp-${listener.name}`);
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await Promise.allSettled([...handling]);
      }),
    );
    this.open_.clear();
  }

  /** Per raw connection: the certificate as the files are now, and the whole-session deadline. */
  private guard(server: SMTPServer, socket: Socket): void {
    const material = this.tls.current();
    if (material?.changed) {
      try {
        server.updateSecureContext({ key: material.key, cert: material.cert });
      } catch (err) {
        this.log.warn({ err }, 'SMTP TLS certificate could not be applied; keeping the previous one');
      }
    }
    const deadline = setTimeout(() => socket.destroy(), this.config.smtp.sessionTimeoutMs);
    deadline.unref();
    socket.once('close', () => clearTimeout(deadline));
  }

  private receive(
    name: string,
    spec: SmtpListenerSpec,
    maxBytes: number,
    stream: SMTPServerDataStream,
    session: SMTPServerSession,
    handling: Set<Promise<unknown>>,
    done: (err?: Error | null, message?: string) => void,
  ): void {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let oversized = false;
    stream.on('data', (chunk: Buffer) => {
      if (oversized) return;
      bytes += chunk.length;
      if (bytes > maxBytes) {
        // From the byte past the limit on, the rest is read and dropped; the refusal comes at the end of DATA.
        oversized = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    // A client that leaves mid-DATA: the stream is destroyed, never ended, so nothing is handled.
    stream.on('error', () => undefined);
    stream.on('end', () => {
      if (oversized || stream.sizeExceeded) {
        done(this.refusal(name, smtpReply(552, '5.3.4', `Message too big: the limit is ${maxBytes} bytes`, 'too_big')));
        return;
      }
      const work = spec.onMessage(Buffer.concat(chunks, bytes), session).then(
        (text) => {
          appMetrics.smtpMessage(name);
          done(null, text);
        },
        (err: unknown) => done(this.refusal(name, err)),
      );
      handling.add(work);
      void work.finally(() => handling.delete(work));
    });
  }

  private settle<T>(name: string, work: () => Promise<T> | undefined, done: (err?: Error | null, value?: T) => void): void {
    Promise.resolve()
      .then(work)
      .then(
        (value) => done(null, value as T),
        (err: unknown) => done(this.refusal(name, err)),
      );
  }

  private refusal(name: string, err: unknown): Error {
    if (isSmtpReply(err)) {
      appMetrics.smtpRejection(name, err.reason);
      return err;
    }
    this.log.error({ err, listener: name }, 'SMTP handler failed');
    appMetrics.smtpRejection(name, 'internal');
    return smtpReply(451, '4.3.0', 'Temporary failure, try again later', 'internal');
  }
}
