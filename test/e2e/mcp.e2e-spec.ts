import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { useSession, waitFor } from '../support/session';
import { systemEnv } from '../support/service-process';

const ROOT = join(__dirname, '..', '..');
/** The MCP server from its TypeScript sources, as `service-process.ts` runs the service. */
const MCP_ARGS = ['-r', './test/support/ts-register.js', 'src/mcp/main.ts'];

const READ_TOOLS = ['find_contacts', 'get_activity', 'get_campaign_stats', 'get_contact', 'list_campaigns', 'list_segments', 'list_templates'];
const WRITE_TOOLS = ['create_campaign_draft', 'send_campaign', 'send_email', 'track_event', 'update_contact'];

/** An MCP client over stdio to a freshly spawned MCP server (`env` on top of PATH and HOME only). */
async function connect(env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: MCP_ARGS, cwd: ROOT, env: { ...systemEnv(), ...env }, stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const client = new Client({ name: 'mailroom-e2e', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => err };
}

/** Runs the MCP server with `env` and no client: for configurations it must refuse. */
function runRefused(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, MCP_ARGS, { cwd: ROOT, env: { PATH: systemEnv().PATH, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

const textOf = (result: CallToolResult): string => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** A successful tool call's JSON (its text and `structuredContent` agree). */
async function ok<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = await call(client, name, args);
  if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
  const parsed = JSON.parse(textOf(result)) as unknown;
  expect(result.structuredContent).toEqual(Array.isArray(parsed) ? { data: parsed } : parsed);
  return parsed as T;
}

describe('MCP server (npm run mcp)', () => {
  const s = useSession({ EMAIL_TRANSPORT: 'outbox' });
  const baseUrl = () => `http://127.0.0.1:${(s.app.runtime.app.getHttpServer().address() as AddressInfo).port}`;
  let mcp: Client;

  beforeAll(async () => {
    mcp = (await connect({ MAILROOM_URL: baseUrl(), MAILROOM_API_KEY: s.keys.secret })).client;
  });
  afterAll(() => mcp?.close());

  it('lists every tool with a description and a JSON schema of its arguments', async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...READ_TOOLS, ...WRITE_TOOLS].sort());
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.annotations?.readOnlyHint).toBe(READ_TOOLS.includes(tool.name));
    }
    const send = tools.find((t) => t.name === 'send_email')!;
    expect(send.inputSchema.required).toEqual(['to']);
    expect(Object.keys(send.inputSchema.properties!)).toEqual(expect.arrayContaining(['to', 'template', 'subject', 'body', 'from', 'data']));
    expect(tools.find((t) => t.name === 'send_campaign')!.inputSchema.properties).toHaveProperty('confirm');
  });

  it('sends an email that lands, readable through the API', async () => {
    const sent = await ok<{ emails: Array<{ email: string; contact: { id: string; email: string } }> }>(mcp, 'send_email', {
      to: { email: 'ann@example.com', name: 'Ann' },
      from: 'hello@example.com',
      subject: 'Welcome {{name}}',
      body: '<p>Hello from the assistant</p>',
    });
    expect(sent.emails).toHaveLength(1);
    const email = await s.read.emailSettled(sent.emails[0].email, ['delivered']);
    expect(email).toMatchObject({ subject: 'Welcome Ann', to: expect.stringContaining('ann@example.com'), contactId: sent.emails[0].contact.id });
  });

  it('tracks an event, then finds, reads and updates the contact', async () => {
    const tracked = await ok<{ contact: string; event: string }>(mcp, 'track_event', { email: 'bob@example.com', event: 'signed_up', data: { plan: 'free' } });
    expect((await s.read.eventsOf(tracked.contact)).map((e) => e.name)).toContain('signed_up');

    const found = await ok<{ data: Array<{ id: string; email: string }>; total: number }>(mcp, 'find_contacts', { search: 'bob@' });
    expect(found.data.map((c) => c.id)).toEqual([tracked.contact]);
    expect(await ok(mcp, 'get_contact', { email: 'BOB@example.com' })).toMatchObject({ id: tracked.contact, data: { plan: 'free' } });

    const updated = await ok(mcp, 'update_contact', { id: tracked.contact, subscribed: false, data: { plan: 'pro', company: 'Acme' } });
    expect(updated).toMatchObject({ id: tracked.contact, subscribed: false, data: { plan: 'pro', company: 'Acme' } });
    expect(await s.read.contact(tracked.contact)).toMatchObject({ subscribed: false, data: { plan: 'pro', company: 'Acme' } });
    expect(await ok(mcp, 'get_contact', { id: tracked.contact })).toMatchObject({ subscribed: false });

    const activity = await ok<{ data: Array<{ type: string }> }>(mcp, 'get_activity', { types: ['event'], contactId: tracked.contact });
    expect(activity.data.length).toBeGreaterThan(0);
    expect(activity.data.every((item) => item.type === 'event')).toBe(true);
  });

  it('lists templates and segments', async () => {
    const template = (await s.api.post('/templates', { name: 'Receipt', subject: 'Your receipt', body: '<p>Thanks</p>', from: 'billing@example.com', type: 'TRANSACTIONAL' }).expect(201)).body;
    const segment = (await s.api.post('/segments', { name: 'Pro', condition: { logic: 'AND', groups: [{ filters: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }] } }).expect(201)).body;
    const templates = await ok<{ data: Array<{ id: string }>; total: number }>(mcp, 'list_templates', { search: 'receipt' });
    expect(templates.data.map((t) => t.id)).toEqual([template.id]);
    const segments = await ok<{ data: Array<{ id: string; name: string }> }>(mcp, 'list_segments');
    expect(segments.data.map((x) => x.id)).toContain(segment.id);
  });

  it('refuses to send a campaign without confirm: true, saying to how many, and sends nothing; with it, the stats follow', async () => {
    await s.api.post('/contacts', { email: 'carol@example.com', subscribed: true }).expect((r) => expect([200, 201]).toContain(r.status));
    const draft = await ok<{ id: string; status: string }>(mcp, 'create_campaign_draft', {
      name: 'Autumn news',
      subject: 'News',
      body: '<p>News</p>',
      from: 'news@example.com',
      audienceType: 'ALL',
    });
    expect(draft.status).toBe('DRAFT');
    const preview = (await s.api.get(`/campaigns/${draft.id}/audience-preview`).expect(200)).body as { totalRecipients: number; skippedCount: number };
    const recipients = preview.totalRecipients - preview.skippedCount;
    expect(recipients).toBeGreaterThan(0);

    for (const args of [{ id: draft.id }, { id: draft.id, confirm: false }]) {
      const refused = await call(mcp, 'send_campaign', args);
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('Not sent');
      expect(textOf(refused)).toContain(`"Autumn news"`);
      expect(textOf(refused)).toContain(`to ${recipients} recipient`);
      expect(textOf(refused)).toContain('confirm: true');
    }
    expect((await s.api.get(`/campaigns/${draft.id}`).expect(200)).body.status).toBe('DRAFT');
    expect((await s.api.get('/v1/emails', { campaignId: draft.id }).expect(200)).body.total).toBe(0);

    const listed = await ok<{ data: Array<{ id: string; status: string }> }>(mcp, 'list_campaigns', { status: 'DRAFT' });
    expect(listed.data.map((c) => c.id)).toContain(draft.id);
    expect(await ok(mcp, 'get_campaign_stats', { id: draft.id })).toMatchObject({ campaign: { id: draft.id, name: 'Autumn news', status: 'DRAFT' }, stats: { sentCount: 0 } });

    const sent = await ok<{ campaign: { id: string; status: string }; message: string }>(mcp, 'send_campaign', { id: draft.id, confirm: true });
    expect(sent.campaign.id).toBe(draft.id);
    const stats = await waitFor(async () => {
      const read = await ok<{ campaign: { status: string }; stats: { deliveredCount: number; totalRecipients: number } }>(mcp, 'get_campaign_stats', { id: draft.id });
      return read.campaign.status === 'SENT' && read.stats.deliveredCount === recipients ? read : undefined;
    }, 60_000, 250);
    expect(stats.stats.totalRecipients).toBe(preview.totalRecipients);
  });

  it("passes the API's errors through as readable tool errors", async () => {
    const unknownTemplate = await call(mcp, 'send_email', { to: 'dan@example.com', template: '00000000-0000-4000-8000-000000000000' });
    expect(unknownTemplate.isError).toBe(true);
    expect(textOf(unknownTemplate)).toMatch(/^Mailroom refused the request: .*template.* \([A-Z_]+, HTTP 4\d\d\)/im);
    expect(textOf(unknownTemplate)).toMatch(/Request id: \S+/);

    const invalid = await call(mcp, 'send_email', { to: 'not-an-address', from: 'hello@example.com', subject: 'Hi', body: 'x' });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toContain('(VALIDATION_ERROR, HTTP 422)');
    expect(textOf(invalid)).toMatch(/^- to\S*: .+$/m);

    const missing = await call(mcp, 'get_campaign_stats', { id: '00000000-0000-4000-8000-000000000000' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('HTTP 404');

    const wrongKey = (await connect({ MAILROOM_URL: baseUrl(), MAILROOM_API_KEY: 'sk_not_a_key' })).client;
    try {
      const refused = await call(wrongKey, 'list_segments');
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('HTTP 401');
    } finally {
      await wrongKey.close();
    }
  });

  it('leaves out every tool that writes in read-only mode', async () => {
    const { client } = await connect({ MAILROOM_URL: baseUrl(), MAILROOM_API_KEY: s.keys.secret, MAILROOM_MCP_READ_ONLY: 'true' });
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(READ_TOOLS);
      const attempt = await call(client, 'send_email', { to: 'eve@example.com', from: 'hello@example.com', subject: 'Hi', body: 'x' });
      expect(attempt.isError).toBe(true);
      expect(textOf(attempt)).toContain('send_email');
      expect(await s.read.contactByEmail('eve@example.com')).toBeUndefined();
      expect((await ok<{ data: unknown[] }>(client, 'find_contacts', { search: 'ann@' })).data).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it.each([
    [{}, /MAILROOM_URL is required/],
    [{ MAILROOM_URL: 'ftp://mail.example.com', MAILROOM_API_KEY: 'sk_x' }, /MAILROOM_URL must be an http/],
    [{ MAILROOM_URL: 'http://127.0.0.1:9' }, /MAILROOM_API_KEY is required/],
    [{ MAILROOM_URL: 'http://127.0.0.1:9', MAILROOM_API_KEY: 'pk_public' }, /public key/],
    [{ MAILROOM_URL: 'http://127.0.0.1:9', MAILROOM_API_KEY: 'sk_x', MAILROOM_MCP_READ_ONLY: 'maybe' }, /MAILROOM_MCP_READ_ONLY must be true or false/],
  ])('exits non-zero with one clear line on stderr for a bad configuration (%j)', async (env, message) => {
    const run = await runRefused(env as Record<string, string>);
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
  });
});
