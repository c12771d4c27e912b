'use strict';
// Issue 3: CSV import end to end (upload → job `completed`) in each mode. The project first gets
// 50,000 contacts (seeded through the import itself); then a ~5 MB file of 50,000 rows and 8
// mixed-type columns is imported, half of its rows updating existing contacts, half creating new
// ones. A re-upload of the same file (every row an unchanged update) is measured too.

const SEED_ROWS = 50_000;
const ROWS = 50_000;
const MAX_BYTES = 5 * 1024 * 1024;

const FIRST = ['Ann', 'Bob', 'Zoë', 'Yan', 'Ola', 'José', 'Mia', 'Kai', 'Lena', 'Omar'];
const PLANS = ['free', 'pro', 'team', 'enterprise'];

function seedCsv() {
  const lines = ['email,plan'];
  for (let i = 0; i < SEED_ROWS; i++) lines.push(`user${i}@bench.example.com,${PLANS[i % PLANS.length]}`);
  return Buffer.from(lines.join('\n') + '\n');
}

/** Rows 0..24,999 hit seeded contacts (updates); 25,000..49,999 are new addresses (inserts). */
function benchCsv() {
  const lines = ['email,First Name,age,score,vip,signed up,zip,notes'];
  for (let i = 0; i < ROWS; i++) {
    const n = i < ROWS / 2 ? i * 2 : SEED_ROWS + i;
    const name = FIRST[i % FIRST.length];
    const notes = i % 3 === 0 ? `"Likes ${PLANS[i % 4]}, prefers ""email"" on weekdays"` : `from old CRM, note ${i}`;
    const day = String((i % 28) + 1).padStart(2, '0');
    lines.push(
      `user${n}@bench.example.com,${name},${18 + (i % 60)},${(i % 1000) / 10},${i % 2 ? 'yes' : 'no'},2024-03-${day}T10:${String(i % 60).padStart(2, '0')}:00Z,0${10000 + (i % 89999)},${notes}`,
    );
  }
  const buf = Buffer.from(lines.join('\n') + '\n');
  if (buf.length > MAX_BYTES) throw new Error(`bench CSV is ${buf.length} bytes, over the 5 MB limit`);
  return buf;
}

async function importFile(baseUrl, secretKey, buf) {
  const t0 = process.hrtime.bigint();
  const form = new FormData();
  form.append('file', new Blob([buf], { type: 'text/csv' }), 'contacts.csv');
  const res = await fetch(`${baseUrl}/contacts/import`, { method: 'POST', headers: { authorization: `Bearer ${secretKey}` }, body: form });
  if (res.status !== 202) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  const { jobId } = await res.json();
  const acceptedMs = Number(process.hrtime.bigint() - t0) / 1e6;
  for (;;) {
    const poll = await fetch(`${baseUrl}/contacts/import/${jobId}`, { headers: { authorization: `Bearer ${secretKey}` } });
    const job = await poll.json();
    if (job.status === 'completed' || job.status === 'failed') {
      return { job, acceptedMs, totalMs: Number(process.hrtime.bigint() - t0) / 1e6 };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** @param {import('../lib').Ctx} ctx */
async function run(ctx) {
  const { startApp, createProject, row } = ctx;
  const rows = [];
  const seed = seedCsv();
  const file = benchCsv();
  ctx.log(`file: ${ROWS} rows, ${(file.length / 1024 / 1024).toFixed(2)} MB`);
  for (const mode of ctx.modes) {
    const app = await startApp({ mode });
    try {
      const project = await createProject(app.url);
      const seeded = await importFile(app.url, project.secretKey, seed);
      if (seeded.job.status !== 'completed' || seeded.job.imported !== SEED_ROWS) throw new Error(`seed import: ${JSON.stringify({ ...seeded.job, errors: undefined })}`);
      const { job, acceptedMs, totalMs } = await importFile(app.url, project.secretKey, file);
      const expected = { status: 'completed', totalRows: ROWS, imported: ROWS / 2, updated: ROWS / 2, skipped: 0 };
      const ok = Object.entries(expected).every(([k, v]) => job[k] === v);
      if (!ok) ctx.log(`${mode}: unexpected job ${JSON.stringify({ ...job, errors: job.errors.slice(0, 3) })}`);
      const again = await importFile(app.url, project.secretKey, file);
      rows.push(row('seed import 50k new contacts', mode, Math.round(seeded.totalMs), 'ms'));
      rows.push(row('upload accepted (5 MB, 202)', mode, Math.round(acceptedMs), 'ms'));
      rows.push(row('import 50k rows (25k new, 25k updates) end to end', mode, Math.round(totalMs), 'ms', { max: 5000 }));
      rows.push(row('import throughput', mode, Math.round(ROWS / (totalMs / 1000)), 'rows/s'));
      rows.push(row('import counts as expected', mode, ok ? 'yes' : 'no', '', 'yes', ok));
      rows.push(row('re-upload same file (all unchanged updates)', mode, Math.round(again.totalMs), 'ms', { max: 5000 }));
    } finally {
      await app.stop();
    }
  }
  return rows;
}

module.exports = { run };
