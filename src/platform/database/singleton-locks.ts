import { OnApplicationShutdown } from '@nestjs/common';
import { Client } from 'pg';
import { logger } from '../logging/logger';

const log = logger('singleton-locks');

/** A silent database fails a lock statement after this instead of holding the round up; the connection is then dropped. */
const STATEMENT_TIMEOUT_MS = 5_000;

/**
 * Work that one process of the deployment does at a time (an event consumer's round, a campaign's
 * fan-out, a scheduled round): PostgreSQL session-level advisory locks, taken and given back on
 * one connection of this process's own. Never a pooled connection: a lock taken there would stay
 * with whichever query borrows it next. A process that dies, however (kill -9), closes that
 * connection and PostgreSQL frees its locks at once, so a surviving process takes each piece of
 * work over at its next try, with no lease to wait out, and a live process that is merely slow
 * keeps what it holds. Keys are `(space, hashtext(name))`, the two-key form, which never meets a
 * one-key lock (`ADVISORY_LOCKS`); two names sharing a hash only wait for each other.
 *
 * Embedded mode has a single process and PGlite a single session (where every lock would be
 * granted again), so the locks are only kept in this process. Within a process a name is held
 * once: a second try while it is held fails, in both modes.
 */
export class SingletonLocks implements OnApplicationShutdown {
  private readonly held = new Set<string>();
  private client: Promise<Client> | undefined;
  private readonly clients = new Map<Promise<Client>, Client>();
  private closed = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly embedded: boolean,
  ) {}

  /** Takes each lock of `names` that no process holds, and returns those taken (in `names`' order). */
  async tryLock(space: number, names: string[]): Promise<string[]> {
    const free = [...new Set(names)].filter((name) => !this.held.has(key(space, name)));
    if (free.length === 0 || this.closed) return [];
    for (const name of free) this.held.add(key(space, name));
    let taken = this.embedded ? free : [];
    try {
      if (!this.embedded) {
        const rows = await this.query<{ name: string }>(`SELECT n AS name FROM unnest($2::text[]) AS n WHERE pg_try_advisory_lock($1::int, hashtext(n))`, [space, free]);
        taken = rows.map((r) => r.name);
      }
    } finally {
      const kept = new Set(taken);
      for (const name of free) if (!kept.has(name)) this.held.delete(key(space, name));
    }
    return free.filter((name) => taken.includes(name));
  }

  /** Gives back locks this process took with `tryLock` (a lock lost with its connection is simply gone). */
  async unlock(space: number, names: string[]): Promise<void> {
    const mine = [...new Set(names)].filter((name) => this.held.has(key(space, name)));
    if (mine.length === 0) return;
    try {
      if (!this.embedded && this.client) {
        await this.query(`SELECT pg_advisory_unlock($1::int, hashtext(n)) FROM unnest($2::text[]) AS n`, [space, mine]);
      }
    } catch (err) {
      // The connection is gone, and with it the locks: nothing is left to give back.
      log.warn({ err }, 'could not give singleton locks back; they ended with their connection');
    } finally {
      for (const name of mine) this.held.delete(key(space, name));
    }
  }

  /** Runs `work` holding lock `(space, name)`, or returns `whenHeld` at once when another process (or round) holds it. */
  async withLock<T>(space: number, name: string, whenHeld: T, work: () => Promise<T>): Promise<T> {
    const [taken] = await this.tryLock(space, [name]);
    if (taken === undefined) return whenHeld;
    try {
      return await work();
    } finally {
      await this.unlock(space, [name]);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    if (client) await client.then((c) => c.end()).catch(() => undefined);
  }

  /** A statement on the dedicated connection; one that fails or times out drops the connection (and with it every lock). */
  private async query<R extends object>(text: string, values: unknown[]): Promise<R[]> {
    const opened = this.connection();
    try {
      const client = await opened;
      return (await client.query<R>({ text, values, query_timeout: STATEMENT_TIMEOUT_MS } as { text: string; values: unknown[] })).rows;
    } catch (err) {
      this.drop(opened, err);
      throw err;
    }
  }

  /** The dedicated connection, opened on first use and again after it was lost (its locks went with it). */
  private connection(): Promise<Client> {
    if (this.client) return this.client;
    const client = new Client({ connectionString: this.databaseUrl, connectionTimeoutMillis: STATEMENT_TIMEOUT_MS, keepAlive: true });
    const opened = client.connect().then(() => client);
    client.on('error', (err) => this.drop(opened, err));
    client.on('end', () => this.drop(opened));
    this.client = opened;
    opened.catch((err: unknown) => this.drop(opened, err));
    this.clients.set(opened, client);
    return opened;
  }

  /** Forgets a connection that failed: every lock of this process ended with it, so none is held any more. */
  private drop(opened: Promise<Client>, err?: unknown): void {
    const client = this.clients.get(opened);
    this.clients.delete(opened);
    if (this.client === opened) {
      this.client = undefined;
      this.held.clear();
      if (err) log.warn({ err }, 'the singleton locks connection was lost; its locks are free for any process');
    }
    void client?.end().catch(() => undefined);
  }
}

const key = (space: number, name: string): string => `${space}:${name}`;
