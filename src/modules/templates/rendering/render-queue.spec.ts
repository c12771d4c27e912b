import { RenderQueue, URGENT } from './render-queue';

/** A fake renderer: records each batch, answers what `answer` says (every job by default). */
function harness(answer: (jobs: string[]) => Array<string | undefined> = (jobs) => jobs.map((j) => `done ${j}`)) {
  const batches: string[][] = [];
  let release: (() => void) | null = null;
  const queue = new RenderQueue<string, string>({
    max: 3,
    maxInFlight: 1,
    runBatch: async (jobs) => {
      batches.push(jobs);
      await new Promise<void>((resolve) => (release = resolve));
      return answer(jobs);
    },
  });
  const next = async () => {
    while (!release) await new Promise((resolve) => setImmediate(resolve));
    const r = release as () => void;
    release = null;
    r();
  };
  return { queue, batches, next };
}

describe('RenderQueue (issue 51.4: projects take turns at the renderers)', () => {
  it("serves another project's job after the batch in flight, however many one project has waiting", async () => {
    const { queue, batches, next } = harness();
    const a = Array.from({ length: 10 }, (_, i) => queue.run('A', `a${i}`));
    const b = queue.run('B', 'b0');
    for (let i = 0; i < 5; i++) await next();
    await expect(b).resolves.toBe('done b0');
    expect(batches.slice(0, 3)).toEqual([['a0', 'a1', 'a2'], ['b0'], ['a3', 'a4', 'a5']]);
    await expect(Promise.all(a)).resolves.toHaveLength(10);
  });

  it('runs the urgent lane (save-time checks) before any project', async () => {
    const { queue, batches, next } = harness();
    void queue.run('A', 'a0');
    void queue.run('A', 'a1');
    await new Promise((resolve) => setImmediate(resolve));
    void queue.run('A', 'a2');
    const check = queue.run(URGENT, 'check');
    await next();
    await next();
    await expect(check).resolves.toBe('done check');
    expect(batches[1]).toEqual(['check']);
    await next();
  });

  it('puts the jobs a batch did not start back at the head of their queue, and runs a job left undefined alone', async () => {
    let round = 0;
    const { queue, batches, next } = harness((jobs) => (round++ === 0 ? ['done ' + jobs[0], undefined] : jobs.map((j) => `done ${j}`)));
    const jobs = ['a0', 'a1', 'a2', 'a3'].map((j) => queue.run('A', j));
    for (let i = 0; i < 3; i++) await next();
    await expect(Promise.all(jobs)).resolves.toEqual(['done a0', 'done a1', 'done a2', 'done a3']);
    // a1 came back undefined (its renderer died): alone; a2 was not started: back in turn with a3.
    expect(batches).toEqual([['a0', 'a1', 'a2'], ['a1'], ['a2', 'a3']]);
  });
});
