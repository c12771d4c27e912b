import { EMAIL_JOB_OPTIONS, EMAILS_PER_JOB, jobsFor } from './email-queue';

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('email-send jobs', () => {
  it("groups concurrent calls' new emails by type, at most EMAILS_PER_JOB per job, bulk mail behind transactional", () => {
    const jobs = jobsFor([
      { ids: ids('t', 30), type: 'TRANSACTIONAL', alone: false },
      { ids: ids('m', 3), type: 'MARKETING', alone: false },
      { ids: ids('u', 40), type: 'TRANSACTIONAL', alone: false },
    ]);
    expect(jobs.map((j) => [j.data.emailIds?.length, j.opts.priority])).toEqual([
      [EMAILS_PER_JOB, undefined],
      [70 - EMAILS_PER_JOB, undefined],
      [3, 10],
    ]);
    expect(jobs.flatMap((j) => j.data.emailIds)).toEqual([...ids('t', 30), ...ids('u', 40), ...ids('m', 3)]);
    // Grouped jobs have generated ids; they carry the usual attempts and backoff.
    expect(jobs.every((j) => j.opts.jobId === undefined && j.opts.attempts === EMAIL_JOB_OPTIONS.attempts)).toBe(true);
  });

  it('gives single emails (a lone new email, the sweep) a job of their own with the email id as job id', () => {
    const jobs = jobsFor([
      { ids: ['lone'], type: 'HEADLESS', alone: false },
      { ids: ['s1', 's2'], type: 'TRANSACTIONAL', alone: true },
    ]);
    expect(jobs.map((j) => [j.data, j.opts.jobId, j.opts.priority])).toEqual([
      [{ emailId: 's1' }, 's1', undefined],
      [{ emailId: 's2' }, 's2', undefined],
      [{ emailId: 'lone' }, 'lone', 10],
    ]);
  });

  it('puts campaign (bulk) mail behind transactional mail, TRANSACTIONAL campaigns too', () => {
    const jobs = jobsFor([
      { ids: ids('c', 2), type: 'TRANSACTIONAL', alone: false, bulk: true },
      { ids: ids('t', 2), type: 'TRANSACTIONAL', alone: false },
    ]);
    expect(jobs.map((j) => [j.data.emailIds, j.opts.priority])).toEqual([
      [ids('t', 2), undefined],
      [ids('c', 2), 10],
    ]);
  });
});

describe('jobsFor: trace context (OpenTelemetry on)', () => {
  const a = { traceparent: '00-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-aaaaaaaaaaaaaaaa-01' };
  const b = { traceparent: '00-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb-bbbbbbbbbbbbbbbb-01' };

  it('carries the caller trace into its jobs, and each distinct one into a shared group', () => {
    const jobs = jobsFor([
      { ids: ['e1'], type: 'TRANSACTIONAL', alone: true, trace: a },
      { ids: ['e2', 'e3'], type: 'MARKETING', alone: false, trace: a },
      { ids: ['e4'], type: 'MARKETING', alone: false, trace: b },
    ]);
    expect(jobs.map((j) => j.data)).toEqual([{ emailId: 'e1', trace: [a] }, { emailIds: ['e2', 'e3', 'e4'], trace: [a, b] }]);
  });

  it('leaves payloads unchanged without a trace (telemetry off)', () => {
    const jobs = jobsFor([{ ids: ['e1'], type: 'TRANSACTIONAL', alone: true }, { ids: ['e2', 'e3'], type: 'MARKETING', alone: false }]);
    expect(jobs.map((j) => j.data)).toEqual([{ emailId: 'e1' }, { emailIds: ['e2', 'e3'] }]);
  });
});
