'use strict';
// Issue 4: render time per message for a 30 KB template with 20 variables and a loop, through
// the service's own renderer (liquidjs, compiled once and cached, HTML-escaping on). Pure CPU in
// this process, so the mode column reads "cpu". The plain-text part is measured separately.
const { join } = require('node:path');

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
  return [
    row('template size', 'cpu', Math.round(source.body.length / 1024), 'KB'),
    row('render subject + HTML p50 (30 KB, 20 vars, loop)', 'cpu', rendered.p50, 'ms', { max: 1 }),
    row('render subject + HTML p99', 'cpu', rendered.p99, 'ms'),
    row('render + plain-text part p50', 'cpu', withText.p50, 'ms'),
  ];
}

module.exports = { run };
