import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/platform/database/data-source-options';
import { createServicesDatabase, TEST_MODE } from '../support/app';
import { TcpProxy } from '../support/tcp-proxy';

/**
 * Background work has no request deadline: with DATABASE_READ_TIMEOUT_MS its statements give up
 * on a silent PostgreSQL, and the connection of one that gave up is closed, so a pooled
 * connection a partition left dead fails once and is never handed out again (what held a
 * worker's email jobs for ever after a stall healed). On the machine's PostgreSQL, behind a
 * proxy that holds its connections silent for good. A white-box suite: the statements it sends
 * through the proxy are the subject (no endpoint runs a statement on a chosen connection).
 * PostgreSQL's own behaviour whatever the test mode: it runs in the services step only (the
 * embedded step would run the very same statements against the same server again).
 */
(TEST_MODE === 'services' ? describe : describe.skip)('the database read timeout outside requests', () => {
  jest.setTimeout(60_000);
  let database: { url: string; drop: () => Promise<void> };
  let proxy: TcpProxy;
  let dataSource: DataSource | undefined;

  beforeAll(async () => {
    database = await createServicesDatabase();
    proxy = await TcpProxy.start({ host: '127.0.0.1', port: Number(new URL(database.url).port || 5432) });
  });

  afterAll(async () => {
    await dataSource?.destroy().catch(() => undefined);
    await proxy.close();
    await database.drop();
  });

  it('fails a statement on a connection a stall left silent, then answers on a new connection once the database does', async () => {
    const url = new URL(database.url);
    url.port = String(proxy.port);
    dataSource = new DataSource(dataSourceOptions(url.toString(), 1, 3_000, 500));
    await dataSource.initialize();
    expect(await dataSource.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);

    proxy.stall();
    const started = Date.now();
    await expect(dataSource.query('SELECT 2 AS two')).rejects.toThrow('Query read timeout');
    expect(Date.now() - started).toBeLessThan(3_000);

    // The pool's one connection is held silent for good: only its replacement can answer.
    await proxy.restore();
    expect(await dataSource.query('SELECT 3 AS three')).toEqual([{ three: 3 }]);
  });

  it('leaves statements unbounded without it (0), as migrations and the embedded database run', () => {
    expect(dataSourceOptions('postgres://x/y', 1, 3_000, 0).extra).not.toHaveProperty('query_timeout');
    expect(dataSourceOptions('postgres://x/y', 1, 3_000, 500).extra).toMatchObject({ query_timeout: 500 });
  });
});
