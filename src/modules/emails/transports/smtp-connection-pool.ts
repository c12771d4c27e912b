import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { parseConnectionUrl } from 'nodemailer/lib/shared';

/** A connected (and authenticated) SMTP session, lent for one message. */
export interface SmtpLane {
  send(envelope: { from: string; to: string[] }, raw: Buffer): Promise<{ response?: string }>;
  /** Gives the session back (or drops it when it failed or has carried its share of messages). */
  release(broken?: boolean): void;
}

interface Session {
  connection: SMTPConnection;
  messages: number;
  broken: boolean;
}

export interface SmtpPoolOptions {
  url: string;
  size: number;
  /** Messages per session before it is closed and a fresh one opened. */
  maxMessages?: number;
  connectionTimeoutMs?: number;
  socketTimeoutMs?: number;
}

/**
 * Pooled SMTP sessions that are lent only once they are ready: connected, TLS negotiated,
 * authenticated. The pipeline claims an email only when it holds a ready session, so a crash
 * or an outage while a connection is being opened leaves the email `queued` (retried), and the
 * at-most-once window is the message's own hand-over (docs/operations.md, "Reliability").
 */
export class SmtpConnectionPool {
  private readonly idle: Session[] = [];
  private readonly waiting: Array<{ resolve: (s: Session) => void; reject: (e: unknown) => void }> = [];
  private open = 0;
  private closed = false;
  private readonly options: SMTPConnection.Options;
  private readonly auth?: { user: string; pass: string };

  constructor(private readonly config: SmtpPoolOptions) {
    const parsed = parseConnectionUrl(config.url) as SMTPConnection.Options & { auth?: { user?: string; pass?: string } };
    const { auth, ...options } = parsed;
    if (auth?.user) this.auth = { user: auth.user, pass: auth.pass ?? '' };
    this.options = {
      ...options,
      connectionTimeout: config.connectionTimeoutMs ?? 15_000,
      greetingTimeout: config.connectionTimeoutMs ?? 15_000,
      socketTimeout: config.socketTimeoutMs ?? 60_000,
    };
  }

  /** A ready session: an idle one, a new one while under `size`, or the next one given back. */
  async acquire(): Promise<SmtpLane> {
    if (this.closed) throw new Error('the SMTP pool is closed');
    let session = this.takeIdle();
    if (!session && this.open < this.config.size) {
      this.open++;
      try {
        session = await this.connect();
      } catch (err) {
        this.open--;
        this.wakeOne();
        throw err;
      }
    }
    session ??= await new Promise<Session>((resolve, reject) => this.waiting.push({ resolve, reject }));
    return this.lane(session);
  }

  /** Opens a session and closes it: the readiness probe. */
  async verify(): Promise<void> {
    const session = await this.connect();
    session.connection.quit();
  }

  close(): void {
    this.closed = true;
    for (const session of this.idle.splice(0)) session.connection.quit();
    for (const waiter of this.waiting.splice(0)) waiter.reject(new Error('the SMTP pool is closed'));
  }

  private takeIdle(): Session | undefined {
    while (this.idle.length) {
      const session = this.idle.pop()!;
      if (!session.broken && !session.connection.destroyed) return session;
      this.open--;
    }
    return undefined;
  }

  private lane(session: Session): SmtpLane {
    let released = false;
    return {
      send: (envelope, raw) =>
        new Promise((resolve, reject) => {
          session.messages++;
          session.connection.send(envelope, raw, (err, info) => (err ? reject(err) : resolve(info as { response?: string })));
        }),
      release: (broken = false) => {
        if (released) return;
        released = true;
        if (broken) session.broken = true;
        this.giveBack(session);
      },
    };
  }

  private giveBack(session: Session): void {
    const spent = session.broken || session.connection.destroyed || session.messages >= (this.config.maxMessages ?? 1000) || this.closed;
    if (spent) {
      if (!session.connection.destroyed) session.connection.quit();
      this.open--;
      this.wakeOne();
      return;
    }
    const waiter = this.waiting.shift();
    if (waiter) waiter.resolve(session);
    else this.idle.push(session);
  }

  /** A waiter gets a new session when one was dropped (the pool has room again). */
  private wakeOne(): void {
    const waiter = this.waiting.shift();
    if (!waiter) return;
    this.open++;
    this.connect().then(waiter.resolve, (err: unknown) => {
      this.open--;
      waiter.reject(err);
      this.wakeOne();
    });
  }

  private connect(): Promise<Session> {
    return new Promise((resolve, reject) => {
      const connection = new SMTPConnection(this.options);
      const session: Session = { connection, messages: 0, broken: false };
      let settled = false;
      const fail = (err: unknown) => {
        session.broken = true;
        if (settled) return;
        settled = true;
        connection.close();
        reject(err);
      };
      // After the session is ready an error only marks it broken: the send in progress reports it.
      connection.on('error', fail);
      connection.on('end', () => (session.broken = true));
      connection.connect(() => {
        const ready = () => {
          if (settled) return;
          settled = true;
          resolve(session);
        };
        if (!this.auth) return ready();
        connection.login(this.auth, (err) => (err ? fail(err) : ready()));
      });
    });
  }
}
