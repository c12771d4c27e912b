'use strict';
// Issue 4: render time per message for a 30 KB template with 20 variables and a loop, through
// the service's own renderer (liquidjs, compiled once and cached, HTML-escaping on). Pure CPU in
// this process, so the mode column reads "cpu". The plain-text part is measured separately.
// Issue 36 item 5: the service renders in renderer processes (RenderPool, docs/rendering.md), not on
// its event loop: the same messages through the pool, one at a time (a lone email's latency) and
// 32 in flight (a campaign: wall time per message, beside the in-thread render + text part), with
// the CPU per message left on this process's thread and spent in the renderer.
const { join } = require('node:path');
const { ownCpuMs, rendererCpuMs } = require('../lib/cpu');

/**
 * A realistic 30 KB newsletter: mostly static, styled HTML, with 20 distinct variables spread
 * through it (some with filters and `??`), a conditional and a 10-item loop.
 */
function template() {
  const fields = Array.from({ length: 17 }, (_, i) => `v${i}`);
  const filler =
    '<tr><td style="padding:12px 24px;font-family:Helvetica,Arial,sans-serif;font-size:15px;line-height:22px;color:#333333">' +
    'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. ' +
    'Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.</td></tr>\n';
  let body = '<!doctype html><html><head><meta charset="utf-8"><title>{{ firstName }}</title></head><body style="margin:0"><table width="100%">';
  body += '<tr><td>Dear {{ firstName | capitalize }}, your {{ profile.tier | upcase }} plan, {{ nickname ?? "friend" }}.</td></tr>\n';
  let k = 0;
  while (body.length < 30 * 1024) {
    body += filler;
    if (k < fields.length && body.length > (k + 1) * 1500) body += `<tr><td>{{ ${fields[k++]} }}</td></tr>\n`;
  }
  for (; k < fields.length; k++) body += `<tr><td>{{ ${fields[k]} }}</td></tr>\n`;
  body += '{% for item in items %}<tr><td>{{ forloop.index }}. {{ item.name }}</td><td>{{ item.price | times: 1.2 | round: 2 }}</td></tr>{% endfor %}\n';
  body += '<tr><td>{% if vip %}Thanks for being VIP{% else %}Upgrade today{% endif %}</td></tr></table></body></html>';
  return { subject: 'Hello {{ firstName }}, your {{ profile.tier }} summary', body };
}

function variables(i) {
  const vars = { firstName: `Ann <${i}>`, profile: { tier: i % 2 ? 'gold' : 'silver' }, vip: i % 3 === 0 };
  for (let f = 0; f < 17; f++) vars[`v${f}`] = `value-${f}-${i}`;
  vars.items = Array.from({ length: 10 }, (_, k) => ({ name: `Item ${k}`, price: 9.99 + k }));
  return vars;
}

/** @param {import('../lib').Ctx} ctx */
async function run(ctx) {
  const { measure, row, ROOT } = ctx;
  const { TemplateRenderer } = require(join(ROOT, 'dist', 'modules', 'templates', 'rendering', 'template-renderer.js'));
  const renderer = new TemplateRenderer();
  const source = template();
  const n = ctx.quick ? 500 : 3000;
  let i = 0;
  let size = 0;
  // Warm-up: compile once (cached by source), JIT.
  for (let w = 0; w < 200; w++) renderer.renderSource(source, variables(w));
  const rendered = await measure(() => {
    const out = renderer.renderSource(source, variables(i++));
    size = out.html.length;
  }, n);
  const withText = await measure(() => {
    const out = renderer.renderSource(source, variables(i++));
    renderer.toText(out.html);
  }, ctx.quick ? 100 : 500);
  ctx.log(`template ${Math.round(source.body.length / 1024)} KB, rendered ${Math.round(size / 1024)} KB, ${n} samples`);
  const pool = await throughPool(ctx, renderer, source, ctx.quick ? 1000 : 5000);
  return [
    row('template size', 'cpu', Math.round(source.body.length / 1024), 'KB'),
    row('render subject + HTML p50 (30 KB, 20 vars, loop)', 'cpu', rendered.p50, 'ms', { max: 1 }),
    row('render subject + HTML p99', 'cpu', rendered.p99, 'ms'),
    row('render + plain-text part p50', 'cpu', withText.p50, 'ms'),
    ...pool,
  ];
}

/** The same messages through the service's renderer pool (subject, HTML and text part in one job each). */
async function throughPool(ctx, renderer, source, n) {
  const { measure, row, ROOT } = ctx;
  const { RenderPool } = require(join(ROOT, 'dist', 'modules', 'templates', 'rendering', 'render-pool.js'));
  const pool = new RenderPool();
  const job = (i) => ({ subject: source.subject, body: source.body, liquid: true, markdown: false, text: null, variables: variables(i) });
  const hundredths = (ms) => Math.round(ms * 100) / 100;
  try {
    // In this thread, back to back: what the service did per email before the pool.
    let i = 0;
    for (let w = 0; w < 200; w++) renderer.toText(renderer.renderSource(source, variables(w)).html);
    let cpuStart = ownCpuMs();
    let t0 = process.hrtime.bigint();
    for (let k = 0; k < n; k++) renderer.toText(renderer.renderSource(source, variables(i++)).html);
    const inThreadMs = Number(process.hrtime.bigint() - t0) / 1e6 / n;
    const inThreadCpuMs = (ownCpuMs() - cpuStart) / n;

    // Through the pool: warm (renderers started, templates compiled, JIT), then a lone email at a time.
    await Promise.all(Array.from({ length: 200 }, (_, k) => pool.renderEmail(job(k))));
    const lone = await measure(() => pool.renderEmail(job(i++)), ctx.quick ? 200 : 1000);

    // 32 in flight, as the send pipeline keeps them (SEND_CONCURRENCY): wall time and CPU per message.
    const inFlight = 32;
    const cpu0 = { own: ownCpuMs(), renderers: rendererCpuMs([process.pid]) };
    t0 = process.hrtime.bigint();
    let next = 0;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < n) {
          next++;
          await pool.renderEmail(job(i++));
        }
      }),
    );
    const poolMs = Number(process.hrtime.bigint() - t0) / 1e6 / n;
    const ownMs = (ownCpuMs() - cpu0.own) / n;
    const renderersMs = (rendererCpuMs([process.pid]) - cpu0.renderers) / n;
    ctx.log(`pool (${pool.options.processes} renderer(s)): ${hundredths(poolMs)} ms per message in flight vs ${hundredths(inThreadMs)} in this thread`);
    // CPU is the cost that holds on a loaded machine; wall times move with the machine's other work
    // (and the renderers run at nice +10, so they yield to it).
    return [
      row('render + plain-text part, in this thread, per message (mean)', 'cpu', hundredths(inThreadMs), 'ms'),
      row('  its CPU per message', 'cpu', hundredths(inThreadCpuMs), 'ms'),
      row('through the renderer pool, one at a time, p50', 'cpu', hundredths(lone.p50), 'ms'),
      row('through the renderer pool, 32 in flight, wall per message', 'cpu', hundredths(poolMs), 'ms'),
      row("  CPU per message on the caller's thread", 'cpu', hundredths(ownMs), 'ms'),
      row('  CPU per message in the renderer processes', 'cpu', hundredths(renderersMs), 'ms'),
      row('pool CPU per message / in-thread CPU', 'cpu', hundredths((ownMs + renderersMs) / inThreadCpuMs), 'x', { max: 1.1 }, { baseline: hundredths(inThreadCpuMs), baselineUnit: 'ms' }),
      row('pool wall per message / in-thread wall', 'cpu', hundredths(poolMs / inThreadMs), 'x', undefined, { baseline: hundredths(inThreadMs), baselineUnit: 'ms' }),
    ];
  } finally {
    pool.onApplicationShutdown();
  }
}

module.exports = { run, _internals: { template, variables } };
