import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser, ParsedMail } from 'mailparser';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { TestApp, TestProject } from './app';
import { eventually, waitFor } from './wait';
import { whiteBox } from './session';

/** Helpers shared by the deliverability suites (tracking, unsubscribe, SNS, reputation). */

export function db(app: TestApp): DataSource {
  return whiteBox(app).dataSource;
}

export async function send(app: TestApp, project: TestProject, body: Record<string, unknown>, status = 200) {
  const res = await request(app.http).post('/v1/send').set('Authorization', `Bearer ${project.secretKey}`).send(body);
  if (res.status !== status) throw new Error(`POST /v1/send answered ${res.status}, expected ${status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function createTemplate(app: TestApp, project: TestProject, body: Record<string, unknown>): Promise<string> {
  const res = await request(app.http)
    .post('/templates')
    .set('Authorization', `Bearer ${project.secretKey}`)
    .send({ name: 'T', from: 'news@example.com', ...body });
  if (res.status !== 201) throw new Error(`POST /templates answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id;
}

export interface OutboxMessage {
  raw: string;
  parsed: ParsedMail;
  /** Raw header value (unfolded) by lowercase name. */
  header(name: string): string | undefined;
}

/** Waits for `$DATA_DIR/outbox/<emailId>.eml` and parses it. */
export async function outboxMessage(app: TestApp, emailId: string): Promise<OutboxMessage> {
  const file = join(app.dataDir, 'outbox', `${emailId}.eml`);
  await waitFor(async () => (existsSync(file) ? true : undefined));
  const raw = await waitFor(async () => {
    const text = readFileSync(file, 'utf8');
    return text.length > 0 ? text : undefined;
  });
  const parsed = await simpleParser(raw);
  return {
    raw,
    parsed,
    header: (name) => parsed.headerLines.find((h) => h.key === name.toLowerCase())?.line.replace(/^[^:]+:\s*/, '').replace(/\r?\n\s+/g, ' '),
  };
}

/** Path and query of an absolute URL found in mail (the app listens on another port than PUBLIC_URL's). */
export const pathOf = (url: string): string => {
  const u = new URL(url);
  return u.pathname + u.search;
};

/**
 * Retries an assertion until it passes (`eventually` of test/support/app): the send path caches a
 * project for a few seconds, so a change to its tracking mode, language or disabled flag shows up
 * with a delay.
 */
export { eventually };
