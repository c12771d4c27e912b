import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The e2e suites test from outside (test/e2e, test/support/session.ts): they read state through
 * the API, and SQL is left only where a fault or a state no endpoint produces must be staged, or
 * where the API cannot show what is read. Each such statement says why, with "in SQL" in a comment
 * on its line or within the 4 lines above (`// Arranged in SQL: …`, `// Time travel in SQL: …`,
 * `// Fault staged in SQL: …`, `// Read in SQL: …`), unless the suite is about the database itself
 * and says so once in its header ("white-box suite"). And they never sleep a fixed time: they wait
 * on a condition (`waitFor`, `eventually`), and the scenario's own time goes through
 * test/support/wait.ts (`jitter`, `pause`), so no `setTimeout(` appears in a suite.
 */
const E2E = join(__dirname, '..', 'e2e');
const COMMENT_REACH = 4;

/** A SQL statement's keywords, to tell `db.query(text)` from supertest's `.query(queryString)`. */
const SQL_KEYWORD = /\b(SELECT|INSERT|UPDATE|DELETE|ALTER|CREATE|DROP|BEGIN|COMMIT|ROLLBACK|LOCK|LISTEN|NOTIFY|SHOW|ANALYZE|EXPLAIN|WITH|TRUNCATE|VACUUM)\b/;
/** `.query(` or `.query<Row>(`. */
const QUERY_CALL = /\.query(?:<[^()]*?>)?\(/g;
const SQL_COMMENT = /(\/\/|\/\*|^\s*\*).*\bin SQL\b/i;
/** A sleep of its own: `setTimeout(` that is not Jest's `jest.setTimeout(` (the test's time limit), or timers' promise API. */
const SLEEP = /(?<![\w.$])setTimeout\s*\(|timers\/promises/;

/** Whether the call's arguments (from just after `.query(`) are a SQL statement rather than a request's query string or object. */
function isSql(args: string): boolean {
  const first = args.trimStart();
  if (first.startsWith('{')) return false; // supertest: .query({ limit: 100 })
  if (/^[`'"]/.test(first)) return true;
  if (/^sql\b/i.test(first)) return true;
  return SQL_KEYWORD.test(first.slice(0, 300));
}

/** The suite's violations of the conventions, as `file:line: what`. */
export function e2eConventionViolations(file: string, source: string): string[] {
  const lines = source.split('\n');
  // The header: everything above the first describe (comment lines aside).
  const header = source.slice(0, Math.max(0, source.search(/^(?!\s*(\/\/|\/?\*)).*\bdescribe\b/m)));
  const whiteBox = /white-box suite/i.test(header);
  const violations: string[] = [];
  lines.forEach((line, i) => {
    if (SLEEP.test(line)) violations.push(`${file}:${i + 1}: a sleep of its own (wait on a condition, or pause/jitter from test/support/wait.ts)`);
    if (whiteBox) return;
    for (const match of line.matchAll(QUERY_CALL)) {
      const args = [line.slice(match.index + match[0].length), ...lines.slice(i + 1, i + 4)].join('\n');
      if (!isSql(args)) continue;
      const above = lines.slice(Math.max(0, i - COMMENT_REACH), i + 1);
      if (!above.some((l) => SQL_COMMENT.test(l))) violations.push(`${file}:${i + 1}: SQL without a comment saying why it is "in SQL" (within ${COMMENT_REACH} lines above)`);
      break;
    }
  });
  return violations;
}

describe('e2e conventions: the API for state, SQL only where it must be and says why, no fixed sleeps', () => {
  it('flags uncommented SQL and sleeps, and leaves request query strings, commented SQL and white-box suites alone', () => {
    const probe = [
      "describe('probe', () => {",
      '  it("x", async () => {',
      "    await s.db.query(`UPDATE contacts SET subscribed = false`);", // 3: uncommented
      '    // Time travel in SQL: no endpoint ages a key.',
      "    await db().query(`UPDATE idempotency_keys SET expires_at = now()`);",
      "    await s.api.get('/v1/emails').query({ limit: 1 });", // supertest
      "    req = req.query(Object.entries(q).map(([k, v]) => `${k}=${v}`).join('&'));", // supertest, raw query string
      '    await new Promise((r) => setTimeout(r, 100));', // 8: sleep
      '    jest.setTimeout(60_000);',
      "    const [r] = await s.db.query<{ n: number }>('SELECT 1 AS n');", // 10: uncommented, typed
      '    const rows = await client.query(', // 11: uncommented, statement on the next line
      "      'SELECT 1',",
      '    );',
      '  });',
      '});',
    ].join('\n');
    expect(e2eConventionViolations('probe', probe).map((v) => v.split(':').slice(0, 2).join(':'))).toEqual(['probe:3', 'probe:8', 'probe:10', 'probe:11']);
    const whiteBoxProbe = `/**\n * A white-box suite: the database itself.\n */\ndescribe('db', () => {\n  it('x', () => db.query('SELECT 1'));\n});\n`;
    expect(e2eConventionViolations('db', whiteBoxProbe)).toEqual([]);
  });

  it('holds for every suite in test/e2e', () => {
    const suites = readdirSync(E2E).filter((f) => f.endsWith('.e2e-spec.ts'));
    expect(suites.length).toBeGreaterThan(50);
    const violations = suites.flatMap((f) => e2eConventionViolations(`test/e2e/${f}`, readFileSync(join(E2E, f), 'utf8')));
    expect(violations).toEqual([]);
  });
});
