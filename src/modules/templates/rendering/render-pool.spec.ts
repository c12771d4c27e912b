import { readdirSync, readFileSync } from 'node:fs';
import { markdownToHtml } from './markdown';
import { RenderFailedError, RendererUnavailableError, RenderPool } from './render-pool';
import { TemplateRenderer } from './template-renderer';

/** Real renderer processes (forked from the sources through SWC), with small bounds so the hostile cases are quick. */
describe('RenderPool', () => {
  const inThread = new TemplateRenderer();
  const email = (body: string, variables: Record<string, unknown> = {}, extra: { subject?: string; markdown?: boolean; text?: string | null; liquid?: boolean } = {}) => ({
    subject: extra.subject ?? 'Hi {{ name }}',
    body,
    liquid: extra.liquid ?? true,
    markdown: extra.markdown ?? false,
    text: extra.text ?? null,
    variables,
  });
  /** n x n empty iterations, checked by liquidjs between nodes. */
  const SPIN = '{% for i in (1..n) %}{% for j in (1..n) %}{% endfor %}{% endfor %}';
  /** A billion iterations over an array given in data: no liquidjs memory count, only its time check (or the wall clock) ends it. */
  const FOREVER = '{% for a in xs %}{% for b in xs %}{% for c in xs %}{% endfor %}{% endfor %}{% endfor %}';
  const xs = Array.from({ length: 1_000 }, (_, i) => i);
  /** Output no liquidjs counter sees (unescaped): n copies of s. */
  const GROW = '<p>{% for i in (1..n) %}{{ s | raw }}{% endfor %}</p>';
  // 2 MB a step: past a 64 MB heap in a few dozen steps, even on a loaded machine where each
  // near-limit collection is slow (200 KB steps took over 8 s there).
  const big = { n: 200, s: 'x'.repeat(2_000_000) };
  /**
   * By default a renderer runs 10 nice steps below the service, so it yields the CPU to the API;
   * on a machine loaded by other test workers that leaves it a tenth of a core, and a render's
   * seconds become tens. Tests that time a bound run it at the service's priority: they test the
   * bound, not the priority (the priority has its own test).
   */
  const samePriority = { niceIncrement: 0 };
  /** The pids of this process's renderer children, with their /proc stat fields after the name. */
  const renderers = () =>
    readdirSync('/proc').flatMap((pid) => {
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
        return /^\d+$/.test(pid) && fields[1] === String(process.pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('render-child') ? [{ pid: Number(pid), fields }] : [];
      } catch {
        return [];
      }
    });

  let pool: RenderPool;
  afterEach(() => pool?.onApplicationShutdown());

  it('renders exactly as the in-thread renderer does: subject, escaped HTML, text part, markdown, given text, plain content', async () => {
    pool = new RenderPool({ processes: 1 });
    const vars = { name: '<Ann>', items: ['a', 'b'], profile: { tier: 'gold' } };
    const body = '<h1>Hello {{ name }}</h1><p>{% for i in items %}{{ i | upcase }},{% endfor %} {{ profile.tier ?? "basic" }} <a href="https://x.test/a">link</a></p>';
    const expected = inThread.renderSource({ subject: 'Hi {{ name }}', body }, vars);
    await expect(pool.renderEmail('p', email(body, vars))).resolves.toEqual({ ...expected, text: inThread.toText(expected.html) });

    const md = inThread.renderSource({ subject: 'Hi {{ name }}', body: '# Title {{ name }}\n\n* one\n* two' }, vars);
    const mdHtml = markdownToHtml(md.html);
    await expect(pool.renderEmail('p', email('# Title {{ name }}\n\n* one\n* two', vars, { markdown: true }))).resolves.toEqual({ subject: md.subject, html: mdHtml, text: inThread.toText(mdHtml) });
    await expect(pool.renderEmail('p', email('<p>{{ name }}</p>', vars, { text: 'given text' }))).resolves.toMatchObject({ html: '<p>&lt;Ann&gt;</p>', text: 'given text' });
    await expect(pool.renderEmail('p', email('<p>{{ name }}</p>', vars, { liquid: false, subject: 'Raw {{ x }}' }))).resolves.toMatchObject({ subject: 'Raw {{ x }}', html: '<p>{{ name }}</p>' });
    await expect(pool.renderStrings('p', ['https://x.test/{{ id }}', '{{ name }}'], { id: 7, name: '<b>' })).resolves.toEqual(['https://x.test/7', '<b>']);
  });

  it("fails a template's own error with RenderFailedError naming it", async () => {
    pool = new RenderPool({ processes: 1 });
    // A source saved before its checks (or from elsewhere) that does not parse.
    const err = await pool.renderEmail('p', email('<p>{% if n %}open</p>', { n: 1 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RenderFailedError);
    expect((err as Error).message).toMatch(/not closed/);
    const limit = await pool.renderEmail('p', email('{% for i in (1..n) %}{% endfor %}', { n: 60_000_000 })).catch((e: unknown) => e);
    expect(limit).toBeInstanceOf(RenderFailedError);
    expect((limit as Error).message).toMatch(/too much memory/);
  });

  it("stops a render at liquidjs's time budget (subject and body together), without killing the renderer", async () => {
    pool = new RenderPool({ processes: 1, renderMs: 300, ...samePriority });
    const started = Date.now();
    const err = await pool.renderEmail('p', email(SPIN, { n: 5_000 }, { subject: SPIN })).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/ran out of time: over 300 ms/);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(pool.stats.replaced).toBe(0);
  });

  it('kills a render past its wall-clock bound and replaces the renderer; the next render works', async () => {
    pool = new RenderPool({ processes: 1, renderMs: 60_000, wallMs: 500 });
    await pool.renderEmail('p', email('warm'));
    const started = Date.now();
    const err = await pool.renderEmail('p', email(FOREVER, { xs })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RenderFailedError);
    expect((err as Error).message).toMatch(/wall-clock/);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(pool.stats.replaced).toBe(1);
    await expect(pool.renderEmail('p', email('<p>{{ name }}</p>', { name: 'after' }))).resolves.toMatchObject({ html: '<p>after</p>' });
  });

  it('a render that outgrows the heap bound kills its renderer only; it is replaced and the next render works', async () => {
    pool = new RenderPool({ processes: 1, heapMb: 64, wallMs: 60_000, ...samePriority });
    const err = await pool.renderEmail('p', email(GROW, big)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RenderFailedError);
    expect((err as Error).message).toMatch(/ran out of memory: over the renderer's 64 MB heap/);
    expect(pool.stats.replaced).toBe(1);
    await expect(pool.renderEmail('p', email('<p>{{ name }}</p>', { name: 'after' }))).resolves.toMatchObject({ html: '<p>after</p>' });
  });

  it('batches concurrent renders; a culprit in a batch fails alone and every other email gets its own content', async () => {
    pool = new RenderPool({ processes: 1, heapMb: 64, wallMs: 8_000, renderMs: 60_000, ...samePriority });
    await pool.renderEmail('p', email('warm'));
    const jobs = Array.from({ length: 24 }, (_, i) => (i === 5 ? email(GROW, big) : i === 17 ? email(FOREVER, { xs }) : email('<p>{{ i }}</p>', { i, name: `n${i}` })));
    const settled = await Promise.allSettled(jobs.map((job) => pool.renderEmail('p', job)));
    settled.forEach((s, i) => {
      if (i === 5) expect((s as PromiseRejectedResult).reason.message).toMatch(/memory/);
      else if (i === 17) expect((s as PromiseRejectedResult).reason.message).toMatch(/wall-clock/);
      else expect(s).toEqual({ status: 'fulfilled', value: { subject: `Hi n${i}`, html: `<p>${i}</p>`, text: String(i) } });
    });
  });

  it("serves projects in turn: one project's slow renders hold another's email back by one job at most (issue 51.4)", async () => {
    pool = new RenderPool({ processes: 1, renderMs: 300, wallMs: 10_000, sliceMs: 50, ...samePriority });
    await pool.renderEmail('p', email('warm'));
    const order: string[] = [];
    const slow = Array.from({ length: 6 }, (_, i) => pool.renderEmail('A', email(FOREVER, { xs })).catch(() => order.push(`a${i}`)));
    const plain = pool.renderEmail('B', email('<p>plain</p>')).then(() => order.push('b'));
    await Promise.all([...slow, plain]);
    // Each slow job runs to its 300 ms budget; the batch stops after the first, and B's turn comes next.
    expect(order.indexOf('b')).toBeLessThanOrEqual(1);
  });

  it('checks Liquid sources in a renderer, ahead of the renders waiting (issue 51.1)', async () => {
    pool = new RenderPool({ processes: 1 });
    await expect(pool.checkLiquid([{ source: '{{ broken', subject: false }, { source: 'Hi {{ name }}', subject: true }])).resolves.toEqual([
      { line: 1, message: expect.stringMatching(/not closed/) as string },
      null,
    ]);
  });

  it('renders many distinct bodies of about 1 MB in a row without outgrowing the heap (issue 51.6: the compiled cache is bounded by size)', async () => {
    pool = new RenderPool({ processes: 1, heapMb: 96, wallMs: 60_000, ...samePriority });
    const base = '<p>hello world</p>'.repeat(54_000);
    for (let i = 0; i < 150; i++) await expect(pool.renderEmail('p', email(`${base}${i}`, {}, { text: 'given' }))).resolves.toMatchObject({ text: 'given' });
    expect(pool.stats.replaced).toBe(0);
  });

  it('a renderer runs 10 nice steps below the service (it yields the CPU to the API)', async () => {
    pool = new RenderPool({ processes: 1 });
    await pool.renderEmail('p', email('warm'));
    const [renderer] = renderers();
    const own = Number(readFileSync(`/proc/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ')[16]);
    // Field 19 of /proc/<pid>/stat (the 17th after the name) is the nice value.
    expect(Number(renderer.fields[16])).toBe(Math.min(19, own + 10));
  });

  it('a renderer outlives SIGINT and SIGTERM sent to the whole process group (Ctrl-C, a service manager): its parent stops it', async () => {
    pool = new RenderPool({ processes: 1, renderMs: 60_000, wallMs: 60_000, ...samePriority });
    await pool.renderEmail('p', email('warm'));
    const found = renderers();
    expect(found).toHaveLength(1);
    const pid = found[0].pid;
    const slow = pool.renderEmail('p', email('{% for i in (1..n) %}{% for j in (1..n) %}{% endfor %}{% endfor %}done', { n: 1_000 }));
    process.kill(pid, 'SIGINT');
    process.kill(pid, 'SIGTERM');
    await expect(slow).resolves.toMatchObject({ html: 'done' });
    expect(() => process.kill(pid, 0)).not.toThrow();
    expect(pool.stats.replaced).toBe(0);
    pool.onApplicationShutdown();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(() => process.kill(pid, 0)).toThrow();
  });

  it('refuses work once stopped (RendererUnavailableError: retried, not a render_error)', async () => {
    pool = new RenderPool({ processes: 1 });
    await pool.renderEmail('p', email('warm'));
    pool.onApplicationShutdown();
    await expect(pool.renderEmail('p', email('x'))).rejects.toBeInstanceOf(RendererUnavailableError);
  });
});
