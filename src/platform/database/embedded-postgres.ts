import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Socket } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketHandler, PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { logger } from '../logging/logger';
import { embeddedTemplatePath, restoreEmbeddedTemplate } from './embedded-template';

/** Schema that BullMQ's PostgreSQL backend lives in (persisted name: renaming it strands queued jobs). */
export const QUEUE_SCHEMA = 'bullmq';

export interface EmbeddedPostgres {
  url: string;
  /** The data directory as an archive PGlite loads (`image` below): an in-memory copy of this database. */
  dump(): Promise<Blob>;
  stop(): Promise<void>;
}

type RawDataListener = (data: Uint8Array) => void;

/**
 * The patches below are the only code that reaches into @electric-sql/pglite-socket (pinned in
 * package.json): its server keeps `handlers` (one per connection) and a `queryQueue` that runs
 * each protocol message through `enqueue(handlerId, message, onData)` on `db`, choosing the next
 * message by `db.isInTransaction()`; each connection's `PGLiteSocketHandler` appends what arrives
 * to its `messageBuffer` in `handleData(chunk)`. `socketServerInternals` and
 * `socketHandlerInternals` refuse to start when that shape is gone, so an upgrade fails loudly
 * here and in test/e2e/embedded-postgres.e2e-spec.ts.
 */
interface SocketServerInternals {
  queryQueue: { db: PGlite; enqueue(handlerId: number, message: Uint8Array, onData: RawDataListener): Promise<number> };
  handlers: Set<{ handlerId: number; socket: Socket | null }>;
}

export function socketServerInternals(server: PGLiteSocketServer): SocketServerInternals {
  const internals = server as unknown as Partial<SocketServerInternals>;
  const queue = internals.queryQueue as Partial<SocketServerInternals['queryQueue']> | undefined;
  if (!(internals.handlers instanceof Set) || typeof queue?.enqueue !== 'function' || queue.enqueue.length !== 3 || !queue.db) {
    throw new Error('@electric-sql/pglite-socket changed its internals (server.handlers, queryQueue.enqueue(handlerId, message, onData), queryQueue.db): review the patches in embedded-postgres.ts');
  }
  return internals as SocketServerInternals;
}

interface SocketHandlerInternals {
  messageBuffer: Buffer;
  handleData(chunk: Buffer): Promise<number>;
}

export function socketHandlerInternals(): { prototype: SocketHandlerInternals } {
  const prototype = PGLiteSocketHandler.prototype as unknown as Partial<SocketHandlerInternals>;
  if (typeof prototype.handleData !== 'function' || prototype.handleData.length !== 1) {
    throw new Error('@electric-sql/pglite-socket changed its internals (PGLiteSocketHandler.handleData(chunk)): review the patches in embedded-postgres.ts');
  }
  return { prototype: prototype as SocketHandlerInternals };
}

/** Bytes a message's header needs: a type byte and its length (which counts itself, not the type). */
const MESSAGE_HEADER = 5;
const coalescing = Symbol('mailroom.coalescing');

/** The first `n` bytes of `buffered` followed by `chunks`, or null when there are fewer. */
function leadingBytes(buffered: Buffer, chunks: Buffer[], n: number): Buffer | null {
  if (buffered.length >= n) return buffered.subarray(0, n);
  const parts = [buffered];
  let have = buffered.length;
  for (const chunk of chunks) {
    if (have >= n) break;
    parts.push(chunk);
    have += chunk.length;
  }
  return have >= n ? Buffer.concat(parts, have).subarray(0, n) : null;
}

/**
 * pglite-socket's handler appends every chunk the socket reads to its `messageBuffer` with
 * `Buffer.concat`, so a message that arrives in n chunks is copied n times over: the 4 MB CSV an
 * import stores in `import_jobs` came in ~60 reads and ~130 MB of copies, each a fresh mapping
 * under the service's 128 KB mmap threshold (scripts/service-env.js), and each 870 KB batch of
 * the import itself paid the same (bench/README, "Embedded import: a hang, and the copies of a
 * message read in chunks"). The chunks of a message still incomplete are held here and handed over together
 * once the message is whole. Messages without a type byte (startup, SSL and cancel requests start
 * with their length, whose first byte is 0) are handed over as they come.
 */
function coalesceIncomingMessages(): void {
  const { prototype } = socketHandlerInternals();
  const patched = prototype as SocketHandlerInternals & { [coalescing]?: true };
  if (patched[coalescing]) return;
  const handleData = prototype.handleData;
  const held = new WeakMap<SocketHandlerInternals, { chunks: Buffer[]; bytes: number }>();
  patched.handleData = function (this: SocketHandlerInternals, chunk: Buffer): Promise<number> {
    const pending = held.get(this) ?? { chunks: [], bytes: 0 };
    pending.chunks.push(chunk);
    pending.bytes += chunk.length;
    const buffered = Buffer.isBuffer(this.messageBuffer) ? this.messageBuffer : Buffer.alloc(0);
    const header = leadingBytes(buffered, pending.chunks, MESSAGE_HEADER);
    const typed = header !== null && header[0] !== 0;
    if (typed && buffered.length + pending.bytes < 1 + header.readUInt32BE(1)) {
      held.set(this, pending);
      return Promise.resolve(0);
    }
    held.delete(this);
    return handleData.call(this, pending.chunks.length === 1 ? chunk : Buffer.concat(pending.chunks, pending.bytes));
  };
  patched[coalescing] = true;
}

const NOTIFICATION_RESPONSE = 0x41; // 'A'

/**
 * Scans a backend message stream that may arrive in arbitrary chunks and hands every complete
 * NotificationResponse message to `onNotification`.
 */
export function createNotificationScanner(onNotification: (message: Buffer) => void): (chunk: Uint8Array) => void {
  let pending = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length ? Buffer.concat([pending, Buffer.from(chunk)]) : Buffer.from(chunk);
    let offset = 0;
    while (pending.length - offset >= 5) {
      const length = pending.readUInt32BE(offset + 1);
      if (pending.length - offset < 1 + length) break;
      if (pending[offset] === NOTIFICATION_RESPONSE) onNotification(Buffer.from(pending.subarray(offset, offset + 1 + length)));
      offset += 1 + length;
    }
    pending = offset === 0 ? pending : Buffer.from(pending.subarray(offset));
  };
}

/**
 * PGlite is a single session shared by every socket connection, so a NOTIFY is delivered inside
 * whichever connection's response runs next, not to the connection that ran LISTEN. Queries are
 * serialised, so after each response every other socket sits between complete messages; we copy
 * each NotificationResponse to all of them, and the client that listens picks it up (BullMQ's
 * worker wake-up relies on this). Clients that did not LISTEN ignore the message.
 */
function relayNotifications(server: PGLiteSocketServer): void {
  const internals = socketServerInternals(server);
  const queue = internals.queryQueue;
  const enqueue = queue.enqueue.bind(queue);
  queue.enqueue = (handlerId, message, onData) => {
    const scan = createNotificationScanner((notification) => {
      for (const handler of internals.handlers) {
        if (handler.handlerId !== handlerId && handler.socket && !handler.socket.destroyed) handler.socket.write(notification);
      }
    });
    return enqueue(handlerId, message, (data) => {
      onData(data);
      scan(data);
    });
  };
}

/** Extended-protocol messages after which the unnamed statement/portal is in use until Sync: Parse, Bind, Describe, Execute, Close, Flush. */
const MID_SEQUENCE = new Set([0x50, 0x42, 0x44, 0x45, 0x43, 0x48]);

/**
 * The socket server queues each protocol message on its own and keeps one connection's messages
 * together only inside a transaction. Between Parse and Sync another connection could replace
 * the shared session's unnamed statement, so our Bind would run against its query. Treating an
 * open Parse…Sync sequence like an open transaction keeps the sequence on one connection.
 */
function keepExtendedQueryAffinity(server: PGLiteSocketServer, db: PGlite): void {
  const queue = socketServerInternals(server).queryQueue;
  let midSequence = false;
  queue.db = new Proxy(db, {
    get(target, prop) {
      if (prop === 'isInTransaction') return () => target.isInTransaction() || midSequence;
      if (prop === 'execProtocolRawStream') {
        return (message: Uint8Array, options: Parameters<PGlite['execProtocolRawStream']>[1]) => {
          midSequence = MID_SEQUENCE.has(message[0]);
          return target.execProtocolRawStream(message, options);
        };
      }
      const value: unknown = Reflect.get(target, prop);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

export interface EmbeddedPostgresOptions {
  /**
   * shared_buffers in MB. PostgreSQL initialises its whole buffer pool at start, so inside the
   * WASM memory every MB of it is resident from the first second (the 128 MB default made half of
   * an idle service's RSS); pages it does not hold come back from the OS page cache, one read away.
   * Unset: PostgreSQL's default.
   */
  sharedBuffersMb?: number;
  /** In memory only: start from this archive (a `dump()`) instead of the build's template. */
  image?: Blob;
}

/**
 * The database directory `<dataDir>/db`, made from the build's template on a first start, so the
 * service opens it like a restart instead of running initdb (embedded-template.ts). Without a
 * template for the installed PGlite, PGlite initialises the empty directory itself.
 */
function prepareDatabaseDirectory(dataDir: string): string {
  const dbPath = join(dataDir, 'db');
  const log = logger('embedded-db');
  const template = embeddedTemplatePath();
  let restored = false;
  try {
    restored = restoreEmbeddedTemplate(dbPath, template);
  } catch (err) {
    log.error({ err, template }, 'the embedded database template could not be unpacked');
  }
  if (restored) {
    log.info({ template }, 'new embedded database made from the build\'s template');
  } else if (!existsSync(join(dbPath, 'PG_VERSION'))) {
    log.warn({ template }, 'no embedded database template for this PGlite (`npm run build` makes it): running initdb in this process, which peaks near 800 MB once');
  }
  mkdirSync(dbPath, { recursive: true, mode: 0o700 });
  return dbPath;
}

let templateArchive: Blob | undefined;

/**
 * An in-memory database (the tests' databases) starts from the build's template as well: loading
 * its archive takes ~2 s where initdb took 8-17 s per database. The archive is read once per process.
 * No template: PGlite runs initdb.
 */
function inMemoryTemplate(): Blob | undefined {
  if (templateArchive) return templateArchive;
  const template = embeddedTemplatePath();
  if (!existsSync(template)) return undefined;
  templateArchive = new Blob([gunzipSync(readFileSync(template))]);
  return templateArchive;
}

/**
 * Starts PGlite with its data in `<dataDir>/db` and serves it on a loopback port, so TypeORM and
 * BullMQ use the ordinary `pg` driver. `dataDir` undefined keeps the database in memory (tests).
 */
export async function startEmbeddedPostgres(dataDir: string | undefined, options: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> {
  const dbPath = dataDir ? prepareDatabaseDirectory(dataDir) : undefined;
  const db = await PGlite.create({
    dataDir: dbPath,
    loadDataDir: dbPath ? undefined : (options.image ?? inMemoryTemplate()),
    extensions: { pg_trgm },
    relaxedDurability: false,
    startParams: [...PGlite.defaultStartParams, ...(options.sharedBuffersMb ? ['-c', `shared_buffers=${options.sharedBuffersMb}MB`] : [])],
  });
  // The socket server ignores startup options such as `-c search_path`, and every connection
  // shares this one session: our tables resolve in public, BullMQ's unqualified names in its schema.
  await db.exec(`CREATE SCHEMA IF NOT EXISTS ${QUEUE_SCHEMA}; SET search_path TO public, ${QUEUE_SCHEMA};`);
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 256 });
  coalesceIncomingMessages();
  relayNotifications(server);
  keepExtendedQueryAffinity(server, db);
  await server.start();
  const url = `postgres://postgres:postgres@${server.getServerConn()}/postgres`;
  let stopped = false;
  return {
    url,
    dump: () => db.dumpDataDir('none'),
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
      await db.close();
    },
  };
}
