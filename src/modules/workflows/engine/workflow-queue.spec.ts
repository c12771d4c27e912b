import { STEPS_PER_JOB, WorkflowQueue } from './workflow-queue';

function queue() {
  const addBulk = jest.fn(async (jobs: unknown[]) => jobs);
  return { subject: new WorkflowQueue({ addBulk } as never), addBulk };
}

const refs = (n: number, delayMs?: number) => Array.from({ length: n }, (_, i) => ({ executionId: `x${i}`, seq: 2, ...(delayMs === undefined ? {} : { delayMs }) }));

describe('WorkflowQueue.wakes', () => {
  it('groups wake-ups due together into jobs of STEPS_PER_JOB, each delayed until due', async () => {
    const { subject, addBulk } = queue();
    await subject.wakes(refs(STEPS_PER_JOB * 2 + 3, 60_000), 't');
    const jobs = addBulk.mock.calls[0][0] as Array<{ name: string; data: { wakes: unknown[] }; opts: { jobId: string; delay: number } }>;
    expect(jobs.map((j) => [j.name, j.data.wakes.length, j.opts.delay])).toEqual([
      ['wakes', STEPS_PER_JOB, 60_000],
      ['wakes', STEPS_PER_JOB, 60_000],
      ['wakes', 3, 60_000],
    ]);
    expect(jobs[0].data.wakes[0]).toEqual({ executionId: 'x0', seq: 2 });
    expect(new Set(jobs.map((j) => j.opts.jobId)).size).toBe(3);
    expect(jobs[0].opts.jobId).toBe('t.g.x0.2');
  });

  it('keeps wake-ups with different delays apart, a lone one in a group of its own', async () => {
    const { subject, addBulk } = queue();
    await subject.wakes([...refs(2, 1_000), { executionId: 'y', seq: 4, delayMs: 5_000 }, { executionId: 'z', seq: 1, delayMs: -20 }], 'e');
    const jobs = addBulk.mock.calls[0][0] as Array<{ name: string; data: Record<string, unknown>; opts: { jobId: string; delay: number } }>;
    expect(jobs.map((j) => [j.name, j.opts.jobId, j.opts.delay])).toEqual([
      ['wakes', 'e.g.x0.2', 1_000],
      ['wakes', 'e.g.y.4', 5_000],
      ['wakes', 'e.g.z.1', 0],
    ]);
    expect(jobs[1].data).toEqual({ wakes: [{ executionId: 'y', seq: 4 }] });
  });

  it('adds nothing for no wake-ups', async () => {
    const { subject, addBulk } = queue();
    await subject.wakes([], 's1');
    expect(addBulk).not.toHaveBeenCalled();
  });
});
