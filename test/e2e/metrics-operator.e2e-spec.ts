import { useSession, waitFor } from '../support/session';

/** `/metrics` carries the operator's counters besides HTTP: emails by status and transport, hand-over latency, queue depth and job outcomes, import rows, and Swagger assets under `/docs`. */
describe('operator metrics', () => {
  const s = useSession({ DOMAIN_VERIFICATION: 'off', EMAIL_TRANSPORT: 'outbox' });

  const scrape = async () => (await s.anonymous.get('/metrics').expect(200)).text;

  it('counts send jobs per queue, import rows by outcome, and shows queue depth', async () => {
    await s.api.post('/v1/send', { to: 'm1@example.com', from: 'hello@example.com', subject: 'Hi', body: '<p>x</p>' }).expect(200);
    const csv = Buffer.from('email,plan\na@example.com,pro\nnot-an-email,pro\nb@example.com,team\n', 'utf8');
    await s.api.post('/contacts/import').attach('file', csv, 'contacts.csv').expect(202);
    const text = await waitFor(async () => {
      const t = await scrape();
      return /mailroom_queue_jobs_total\{queue="email-send",outcome="completed"\} [1-9]/.test(t) && /mailroom_import_rows_total\{outcome="imported"\} [1-9]/.test(t) ? t : undefined;
    });
    expect(text).toMatch(/mailroom_queue_job_duration_seconds_count\{queue="email-send",outcome="completed"\} [1-9]/);
    expect(text).toMatch(/mailroom_import_rows_total\{outcome="skipped"\} [1-9]/);
    expect(text).toMatch(/mailroom_queue_depth\{queue="email-send",state="waiting"\} \d+/);
    // The email itself: its status by transport, and how long the hand-over took.
    expect(text).toMatch(/mailroom_emails_total\{status="(sent|delivered)",transport="outbox"\} [1-9]/);
    expect(text).toMatch(/mailroom_email_handover_seconds_count\{transport="outbox"\} [1-9]/);
  });

  it('labels Swagger UI assets with the /docs route, not unmatched', async () => {
    await s.anonymous.get('/docs/swagger-ui-bundle.js').expect(200);
    const text = await scrape();
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/docs",status="200"\}/);
    expect(text).not.toMatch(/route="unmatched",status="200"/);
  });

  it('labels requests the input guard or a body parser refuses with their route, not unmatched', async () => {
    await s.api.post('/contacts', { email: 'guard@example.com', data: { ['k\ud800']: 1 } }).expect(422);
    await s.api.patch('/contacts/cnt_00000000000000000000000000000000').set('Content-Type', 'application/json').send('{"a":').expect(400);
    const text = await scrape();
    expect(text).toMatch(/http_requests_total\{method="POST",route="\/contacts",status="422"\} [1-9]/);
    expect(text).toMatch(/http_requests_total\{method="PATCH",route="\/contacts\/:id",status="400"\} [1-9]/);
    expect(text).not.toMatch(/route="unmatched",status="(422|400)"/);
  });
});
