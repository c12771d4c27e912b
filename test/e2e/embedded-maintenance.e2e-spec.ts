import request from 'supertest';
import { createProject, startTestApp, TEST_MODE, TestApp } from '../support/app';
import { whiteBox } from '../support/session';
import { eventually } from '../support/wait';
import { EmbeddedMaintenance } from '../../src/platform/database/embedded-maintenance';

/**
 * The embedded database has no autovacuum: the service vacuums and analyzes changed tables itself
 * (`EMBEDDED_MAINTENANCE_INTERVAL_MS`). With PostgreSQL that is the server's own work. A
 * white-box suite: the database's own statistics (last vacuum, a GIN index's pending list) are the
 * subject, which no endpoint shows, after a bulk write set-based in SQL.
 */
describe('embedded database maintenance', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ EMBEDDED_MAINTENANCE_INTERVAL_MS: '300' });
  });
  afterAll(() => app?.close());

  const maintenance = () => {
    try {
      return app.runtime.app.get(EmbeddedMaintenance, { strict: false });
    } catch {
      return null;
    }
  };

  if (TEST_MODE === 'services') {
    it('leaves PostgreSQL to its autovacuum', () => {
      expect(maintenance()).toBeNull();
    });
    return;
  }

  it('vacuums contacts after a bulk write, merging the search index, and searches still answer', async () => {
    const project = await createProject(app.http);
    const db = whiteBox(app);
    const [before] = await db.query<{ at: string | null }>(`SELECT last_vacuum AS at FROM pg_stat_user_tables WHERE relname = 'contacts' AND schemaname = 'public'`);
    await db.query(
      `INSERT INTO contacts (project_id, email, subscribed, data) SELECT $1, 'p' || g || '@example.com', true, jsonb_build_object('company', 'Acme ' || g) FROM generate_series(1, 3000) g`,
      [project.id],
    );
    await eventually(async () => {
      const [row] = await db.query<{ vacuumed: boolean }>(
        `SELECT last_vacuum IS NOT NULL AND last_vacuum IS DISTINCT FROM $1::timestamptz AS vacuumed FROM pg_stat_user_tables WHERE relname = 'contacts' AND schemaname = 'public'`,
        [before?.at ?? null],
      );
      expect(row?.vacuumed).toBe(true);
    }, 20_000);
    const [pending] = await db.query<{ pages: number }>(
      `SELECT coalesce(sum(gin_clean_pending_list(i.indexrelid::regclass)), 0)::int AS pages FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'contacts'::regclass AND c.relam = (SELECT oid FROM pg_am WHERE amname = 'gin')`,
    );
    expect(pending?.pages).toBe(0);
    const res = await request(app.http).get('/contacts?search=p2999@').set('Authorization', `Bearer ${project.secretKey}`).expect(200);
    expect(res.body.total).toBe(1);
  });
});
