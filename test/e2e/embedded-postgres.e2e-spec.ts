import type { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketHandler, PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { Client } from 'pg';
import { EmbeddedPostgres, socketHandlerInternals, socketServerInternals, startEmbeddedPostgres } from '../../src/platform/database/embedded-postgres';
import { waitFor } from '../support/wait';

/**
 * The embedded server multiplexes many `pg` connections onto PGlite's single session. These are
 * the contract tests of the pglite-socket patches in embedded-postgres.ts (versions pinned in
 * package.json): an upgrade that changes what they rely on fails here. A white-box suite: the
 * statements its connections send are the subject, with no app in front.
 */
// Not on the session fixture: it tests the embedded database server itself, with no app.
describe('embedded PostgreSQL server', () => {
  let pg: EmbeddedPostgres;
  const clients: Client[] = [];

  async function connect(): Promise<Client> {
    const client = new Client({ connectionString: pg.url });
    await client.connect();
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    pg = await startEmbeddedPostgres(undefined, { sharedBuffersMb: 24 });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end()));
    await pg.stop();
  });

  it('pglite-socket keeps server.handlers and runs every message through queryQueue.enqueue(handlerId, message, onData) on queryQueue.db', async () => {
    // Constructing the server only stores the database (no query runs), so any object will do.
    const db = {} as PGlite;
    const internals = socketServerInternals(new PGLiteSocketServer({ db, port: 0 }));
    expect(internals.queryQueue.db).toBe(db);
    expect(internals.handlers.size).toBe(0);
  });

  it('pglite-socket handlers take what a socket reads through handleData(chunk) into their messageBuffer', async () => {
    expect(() => socketHandlerInternals()).not.toThrow();
    const handler = new PGLiteSocketHandler({ queryQueue: socketServerInternals(new PGLiteSocketServer({ db: {} as PGlite, port: 0 })).queryQueue as never });
    expect(Buffer.isBuffer((handler as unknown as { messageBuffer: unknown }).messageBuffer)).toBe(true);
  });

  it('copies a message read in many chunks once, not once per chunk', async () => {
    const client = await connect();
    const value = 'x'.repeat(3 * 1024 * 1024);
    const concat = jest.spyOn(Buffer, 'concat');
    try {
      const { rows } = await client.query('SELECT length($1::text) AS n', [value]);
      expect(rows[0].n).toBe(value.length);
      // Patched: the held chunks joined once, then the handler's own append onto its empty buffer.
      // Unpatched, the handler appended each read (up to 64 KB) onto all it held before.
      const copied = concat.mock.results.reduce((sum, r) => sum + (r.value as Buffer).length, 0);
      expect(copied).toBeLessThan(3 * value.length);
    } finally {
      concat.mockRestore();
    }
  });

  it('runs with the shared_buffers it was given (EMBEDDED_DB_BUFFERS_MB), not PostgreSQL\'s resident 128 MB', async () => {
    const client = await connect();
    const { rows } = await client.query('SHOW shared_buffers');
    expect(rows[0].shared_buffers).toBe('24MB');
  });

  it('keeps the parameterised queries of concurrent connections apart', async () => {
    const connections = await Promise.all(Array.from({ length: 6 }, connect));
    const failures: string[] = [];
    await Promise.all(
      connections.map(async (client, i) => {
        for (let k = 0; k < 60; k++) {
          try {
            if (i === 0) {
              await client.query('BEGIN');
              const { rows } = await client.query('SELECT $1::int + $2::int + $3::int + $4::int AS s', [1, 2, 3, 4]);
              if (rows[0].s !== 10) failures.push(`transaction got ${rows[0].s}`);
              await client.query('COMMIT');
            } else {
              const params = Array.from({ length: (i % 4) + 1 }, (_, j) => j + 1);
              const { rows } = await client.query(`SELECT ${params.map((_, j) => `$${j + 1}::int`).join(' + ')} AS s`, params);
              const expected = params.reduce((a, b) => a + b, 0);
              if (rows[0].s !== expected) failures.push(`got ${rows[0].s}, expected ${expected}`);
            }
          } catch (err) {
            failures.push(String(err));
            if (i === 0) await client.query('ROLLBACK').catch(() => undefined);
          }
        }
      }),
    );
    expect(failures).toEqual([]);
  });

  it('delivers NOTIFY to the connection that listens, whichever connection ran it', async () => {
    const listener = await connect();
    const notifier = await connect();
    await listener.query('LISTEN mailroom_test');
    let received: string | undefined;
    listener.on('notification', (n) => (received = n.payload ?? ''));
    await notifier.query(`SELECT pg_notify('mailroom_test', 'hello')`);
    await expect(waitFor(async () => received, 5000)).resolves.toBe('hello');
  });
});
