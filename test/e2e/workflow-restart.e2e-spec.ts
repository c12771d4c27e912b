import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pause, startTestApp, TestApp } from '../support/app';
import { openSession, projectSession, ProjectSession, waitFor } from '../support/session';

/**
 * DELAY and WAIT_FOR_EVENT survive a restart: the due time is in the database. The app stops in
 * the middle of both waits and starts again on the same data; each execution resumes once, on time.
 */
describe('workflow executions across a restart', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-wf-restart-'));
  let app: TestApp | undefined;

  afterAll(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('resumes a DELAY and a WAIT_FOR_EVENT (event and timeout) once, on time', async () => {
    const first = await openSession({}, { persistent: true, dataDir });
    app = first.app;
    const api = first.api;
    const flow = async (eventName: string, waitStep: { type: string; config: Record<string, unknown> }, outcomes: Array<Record<string, unknown>>) => {
      const wf = (await api.post('/workflows', { name: eventName, eventName }).expect(201)).body;
      const wait = (await api.post(`/workflows/${wf.id}/steps`, waitStep).expect(201)).body.id;
      await api.post(`/workflows/${wf.id}/transitions`, { fromStepId: wf.steps[0].id, toStepId: wait }).expect(201);
      for (const [i, extra] of outcomes.entries()) {
        const exit = (await api.post(`/workflows/${wf.id}/steps`, { type: 'EXIT', config: { reason: `exit ${i}` } }).expect(201)).body.id;
        await api.post(`/workflows/${wf.id}/transitions`, { fromStepId: wait, toStepId: exit, ...extra }).expect(201);
      }
      await api.patch(`/workflows/${wf.id}`, { enabled: true }).expect(200);
      return wf.id as string;
    };
    const delayWf = await flow('r.delay', { type: 'DELAY', config: { amount: 1, unit: 'minutes' } }, [{}]);
    const waitWf = await flow('r.wait', { type: 'WAIT_FOR_EVENT', config: { eventName: 'r.done', timeout: 25 } }, [{ waitOutcome: 'EVENT' }, { waitOutcome: 'TIMEOUT' }]);
    const startedAt = Date.now();
    await api.post('/v1/track', { email: 'delayed@example.com', event: 'r.delay' }).expect(200);
    await api.post('/v1/track', { email: 'answers@example.com', event: 'r.wait' }).expect(200);
    await api.post('/v1/track', { email: 'silent@example.com', event: 'r.wait' }).expect(200);
    const waiting = async (s: ProjectSession, wf: string, count: number) =>
      waitFor(async () => {
        const res = await s.api.get(`/workflows/${wf}/executions`, { status: 'WAITING' }).expect(200);
        return res.body.total === count ? res.body.data : undefined;
      });
    const [delayed] = await waiting(first, delayWf, 1);
    const waits = await waiting(first, waitWf, 2);

    await first.app.close();
    app = undefined;
    await pause(2_000, 'the service is down for a while, its waits running on');
    app = await startTestApp({}, { persistent: true, dataDir });
    const s = projectSession(app.http, first.project);

    const answers = (await s.read.contactByEmail('answers@example.com'))!;
    await s.api.post('/v1/track', { email: 'answers@example.com', event: 'r.done' }).expect(200);
    const get = (wf: string, id: string) => s.api.get(`/workflows/${wf}/executions/${id}`).expect(200).then((r) => r.body);
    const settled = (wf: string, id: string, timeoutMs: number) =>
      waitFor(async () => {
        const e = await get(wf, id);
        return e.status === 'RUNNING' || e.status === 'WAITING' ? undefined : e;
      }, timeoutMs, 200);

    const byEvent = await settled(waitWf, waits.find((e: { contactId: string }) => e.contactId === answers.id).id, 15_000);
    expect(byEvent).toMatchObject({ status: 'EXITED', exitReason: 'exit 0' });
    const silent = await settled(waitWf, waits.find((e: { contactId: string }) => e.contactId !== answers.id).id, 40_000);
    expect(silent).toMatchObject({ status: 'EXITED', exitReason: 'exit 1' });
    const timedOutAfter = Date.parse(silent.completedAt) - startedAt;
    expect(timedOutAfter).toBeGreaterThanOrEqual(24_000);
    expect(timedOutAfter).toBeLessThan(25_000 + 12_000);

    const done = await settled(delayWf, delayed.id, 80_000);
    expect(done).toMatchObject({ status: 'EXITED', exitReason: 'exit 0' });
    const resumedAfter = Date.parse(done.completedAt) - startedAt;
    expect(resumedAfter).toBeGreaterThanOrEqual(59_000);
    expect(resumedAfter).toBeLessThan(60_000 + 12_000);
    // Once: one record per step, in order.
    for (const e of [byEvent, silent, done]) expect(e.steps.map((r: { type: string }) => r.type)).toEqual(['TRIGGER', e === done ? 'DELAY' : 'WAIT_FOR_EVENT', 'EXIT']);
  }, 150_000);
});
