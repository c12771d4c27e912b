import request from 'supertest';
import type { Test } from 'supertest';
import type { App } from 'supertest/types';
import { DataSource } from 'typeorm';
import { createProject, signUp, startTestApp, TestApp, TestAppOptions, TestProject } from './app';
import { waitFor } from './wait';

export { waitFor };

/**
 * The e2e session fixture: one running app, one signed-up owner with a project, and HTTP clients
 * preset with that project's credentials. Suites read state through these clients (the API is
 * what users see); white-box SQL is for state no endpoint shows, and says why where it is used.
 *
 *   const s = useSession({ EMAIL_TRANSPORT: 'outbox' });   // beforeAll/afterAll registered
 *   it('...', async () => { await s.api.post('/contacts', { email: 'a@example.com' }).expect(201); });
 *
 * or, outside jest hooks, `const s = await openSession(env); ...; await s.close();`.
 */

/** A supertest client with fixed headers; `body` is sent as JSON when given, `query` as the query string. */
export interface ApiClient {
  get(url: string, query?: Record<string, unknown>): Test;
  post(url: string, body?: unknown): Test;
  put(url: string, body?: unknown): Test;
  patch(url: string, body?: unknown): Test;
  delete(url: string, body?: unknown): Test;
  /** Alias of `delete`. */
  del(url: string, body?: unknown): Test;
}

export const bearer = (key: string): Record<string, string> => ({ Authorization: `Bearer ${key}` });
/** Dashboard calls: the session cookie plus the header the CSRF guard asks of cookie-authenticated writes. */
export const sessionHeaders = (cookie: string): Record<string, string> => ({ Cookie: cookie, 'X-Requested-With': 'XMLHttpRequest' });

export function apiClient(http: App, headers: Record<string, string> = {}): ApiClient {
  const withBody = (test: Test, body: unknown): Test => (body === undefined ? test : test.send(body as object));
  const del = (url: string, body?: unknown) => withBody(request(http).delete(url).set(headers), body);
  return {
    get: (url, query) => (query === undefined ? request(http).get(url).set(headers) : request(http).get(url).query(query).set(headers)),
    post: (url, body) => withBody(request(http).post(url).set(headers), body),
    put: (url, body) => withBody(request(http).put(url).set(headers), body),
    patch: (url, body) => withBody(request(http).patch(url).set(headers), body),
    delete: del,
    del,
  };
}

export interface ContactView {
  id: string;
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
  /** Explicit topic choices by slug. */
  topics: Record<string, boolean>;
  snoozedUntil: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface EventView {
  id: string;
  name: string;
  contactId: string | null;
  contact: { id: string; email: string } | null;
  data: Record<string, unknown>;
  createdAt: string;
}

/** An email as `GET /v1/emails/:id` shows it (the list's items have no `events`). */
export interface EmailView {
  id: string;
  status: string;
  type: string;
  from: string;
  to: string;
  subject: string | null;
  campaignId: string | null;
  templateId: string | null;
  contactId: string | null;
  workflowExecutionId: string | null;
  error: string | null;
  skipReason: string | null;
  bounceType: string | null;
  messageId: string | null;
  providerMessageId: string | null;
  trackOpens: boolean;
  trackClicks: boolean;
  attempts: number;
  openCount: number;
  clickCount: number;
  createdAt: string;
  updatedAt: string;
  sentAt: string | null;
  deliveredAt: string | null;
  openedAt: string | null;
  clickedAt: string | null;
  bouncedAt: string | null;
  complainedAt: string | null;
  failedAt: string | null;
  events: Array<{ name: string; createdAt: string; data: Record<string, unknown> }>;
}

export const SETTLED_EMAIL_STATUSES = ['sent', 'delivered', 'bounced', 'failed', 'skipped'];

/** The filters of GET /v1/emails. */
export type EmailFilter = { status?: string; campaignId?: string; contactId?: string };

/** State as the API shows it to the project's secret key (every read asserts a 200). */
export interface ApiReads {
  /** The contact with exactly this email (normalised by the caller), or undefined. */
  contactByEmail(email: string): Promise<ContactView | undefined>;
  /** GET /contacts/:id; undefined on 404. */
  contact(id: string): Promise<ContactView | undefined>;
  /** Contacts whose email contains `search` (all of them without it), every page. */
  contacts(search?: string): Promise<ContactView[]>;
  /** `total` of GET /contacts (optionally filtered by `search`). */
  contactCount(search?: string): Promise<number>;
  /** Every event of a contact, newest first (GET /events/contact/:id, every page). */
  eventsOf(contactId: string): Promise<EventView[]>;
  /** Every event of the project, newest first, optionally by name (GET /events, every page). */
  events(filter?: { name?: string; contactId?: string }): Promise<EventView[]>;
  /** The events about one email (`data.emailId`), optionally of one name, oldest first. */
  emailEvents(emailId: string, name?: string): Promise<EventView[]>;
  /** GET /v1/emails/:id; undefined on 404. */
  email(id: string): Promise<EmailView | undefined>;
  /** Every email of the project matching the filter, newest first (GET /v1/emails, every page). */
  emails(filter?: EmailFilter): Promise<Array<Omit<EmailView, 'events'>>>;
  /** How many emails of the project match the filter (`total` of GET /v1/emails' first page). */
  emailCount(filter?: EmailFilter): Promise<number>;
  /** Waits until GET /v1/emails/:id shows one of `statuses` (default: any settled status) and returns the email. */
  emailSettled(id: string, statuses?: string[], timeoutMs?: number): Promise<EmailView>;
}

export function apiReads(api: ApiClient): ApiReads {
  const allPages = async <T>(url: string, query: Record<string, unknown>): Promise<T[]> => {
    const out: T[] = [];
    let cursor: string | undefined;
    do {
      const res = await api.get(url, { ...query, limit: 100, ...(cursor ? { cursor } : {}) }).expect(200);
      out.push(...(res.body.data as T[]));
      cursor = res.body.hasMore ? (res.body.cursor as string) : undefined;
    } while (cursor);
    return out;
  };
  const contacts = (search?: string) => allPages<ContactView>('/contacts', search === undefined ? {} : { search });
  const email = async (id: string): Promise<EmailView | undefined> => {
    const res = await api.get(`/v1/emails/${id}`);
    if (res.status === 404) return undefined;
    if (res.status !== 200) throw new Error(`GET /v1/emails/${id} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body as EmailView;
  };
  return {
    contacts,
    contactByEmail: async (email) => (await contacts(email)).find((c) => c.email === email),
    contact: async (id) => {
      const res = await api.get(`/contacts/${id}`);
      if (res.status === 404) return undefined;
      if (res.status !== 200) throw new Error(`GET /contacts/${id} answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body as ContactView;
    },
    contactCount: async (search) => (await api.get('/contacts', { limit: 1, ...(search === undefined ? {} : { search }) }).expect(200)).body.total as number,
    eventsOf: (contactId) => allPages<EventView>(`/events/contact/${contactId}`, {}),
    events: (filter = {}) => allPages<EventView>('/events', filter),
    emailEvents: async (emailId, name) => (await allPages<EventView>('/events', name === undefined ? {} : { name })).filter((e) => e.data.emailId === emailId).reverse(),
    email,
    emails: (filter = {}) => allPages<Omit<EmailView, 'events'>>('/v1/emails', filter),
    emailCount: async (filter = {}) => (await api.get('/v1/emails', { ...filter, limit: 1 }).expect(200)).body.total as number,
    emailSettled: (id, statuses = SETTLED_EMAIL_STATUSES, timeoutMs = 30_000) =>
      waitFor(async () => {
        const found = await email(id);
        return found && statuses.includes(found.status) ? found : undefined;
      }, timeoutMs),
  };
}

/**
 * Many contacts in one request: uploads `csv` (an `email` column, data columns) to
 * POST /contacts/import and waits for its job; answers the job once completed. Imported contacts
 * are subscribed.
 */
export async function importContacts(http: App, headers: Record<string, string>, csv: string, timeoutMs = 120_000): Promise<Record<string, unknown>> {
  const upload = await request(http).post('/contacts/import').set(headers).attach('file', Buffer.from(csv), { filename: 'contacts.csv', contentType: 'text/csv' }).expect(202);
  const job = await waitFor(
    async () => {
      const found = (await request(http).get(`/contacts/import/${upload.body.jobId as string}`).set(headers).expect(200)).body as Record<string, unknown>;
      return found.status === 'completed' || found.status === 'failed' ? found : undefined;
    },
    timeoutMs,
    100,
  );
  if (job.status !== 'completed') throw new Error(`the import failed: ${JSON.stringify(job)}`);
  return job;
}

/**
 * White-box access to the database, for state no endpoint shows (an email's content row and render
 * variables, job tables, storage at rest) and for arranging states the API cannot produce (a stranded
 * row, an expired key). Each read says why where it is made.
 */
export interface WhiteBox {
  dataSource: DataSource;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export function whiteBox(app: TestApp): WhiteBox {
  const dataSource = app.runtime.app.get(DataSource);
  return { dataSource, query: <T>(sql: string, params: unknown[] = []) => dataSource.query(sql, params) as Promise<T[]> };
}

/** A project with its keys and clients: `api` (secret key), `publicApi` (public key), `dashboard` (owner's session cookie). */
export interface ProjectSession {
  project: TestProject;
  keys: { secret: string; public: string };
  api: ApiClient;
  publicApi: ApiClient;
  dashboard: ApiClient;
  read: ApiReads;
}

/** A signed-up user without a project of their own: `dashboard` is a client with their session cookie. */
export interface TestUser {
  id: string;
  email: string;
  cookie: string;
  dashboard: ApiClient;
}

export interface Session extends ProjectSession {
  app: TestApp;
  http: App;
  /** No credentials. */
  anonymous: ApiClient;
  /** White-box database access (see `WhiteBox`). */
  db: WhiteBox;
  /** Signs up another owner with their own project (for isolation checks). */
  newProject(name?: string): Promise<ProjectSession>;
  /** Signs up another user, without a project (to invite as a member, or as a stranger). */
  newUser(): Promise<TestUser>;
  /** Clients for a project created elsewhere (e.g. by `createProject`). */
  as(project: TestProject): ProjectSession;
  close(): Promise<void>;
}

export function projectSession(http: App, project: TestProject): ProjectSession {
  const api = apiClient(http, bearer(project.secretKey));
  return {
    project,
    keys: { secret: project.secretKey, public: project.publicKey },
    api,
    publicApi: apiClient(http, bearer(project.publicKey)),
    dashboard: apiClient(http, sessionHeaders(project.cookie)),
    read: apiReads(api),
  };
}

export interface SessionOptions extends TestAppOptions {
  /** Name of the session's project (default 'Test project'). */
  projectName?: string;
}

/** Starts the app (`env` overrides variables, as in `startTestApp`) and signs up an owner with a project. */
export async function openSession(env: Record<string, string> = {}, options: SessionOptions = {}): Promise<Session> {
  const app = await startTestApp(env, options);
  try {
    return await sessionFor(app, options.projectName);
  } catch (error) {
    await app.close();
    throw error;
  }
}

/** A session over an app started elsewhere; `close()` closes the app. */
export async function sessionFor(app: TestApp, projectName?: string): Promise<Session> {
  const project = await createProject(app.http, projectName);
  return {
    ...projectSession(app.http, project),
    app,
    http: app.http,
    anonymous: apiClient(app.http),
    db: whiteBox(app),
    newProject: async (name?: string) => projectSession(app.http, await createProject(app.http, name)),
    newUser: async () => {
      const { userId, email, cookie } = await signUp(app.http);
      return { id: userId, email, cookie, dashboard: apiClient(app.http, sessionHeaders(cookie)) };
    },
    as: (other) => projectSession(app.http, other),
    close: () => app.close(),
  };
}

/**
 * Registers `beforeAll` (open) and `afterAll` (close) in the current describe block and returns a
 * stand-in for the opened value: its members may be used from tests and later hooks, not while the
 * block is declared. Hooks run in declaration order, closes included, so a loopback server
 * declared before the session that talks to it is closed first: its close must not wait for clients.
 */
export function useFixture<T extends object>(open: () => Promise<T>, close: (value: T) => Promise<void>): T {
  let value: T | undefined;
  beforeAll(async () => {
    value = await open();
  });
  afterAll(async () => {
    if (value) await close(value);
  });
  const opened = (key: PropertyKey): T => {
    if (!value) throw new Error(`fixture.${String(key)} used before it opened (use it inside a test or hook)`);
    return value;
  };
  return new Proxy({} as T, {
    get(_target, key) {
      const target = opened(key);
      const member = Reflect.get(target, key, target) as unknown;
      return typeof member === 'function' ? (member as (...args: unknown[]) => unknown).bind(target) : member;
    },
    set(_target, key, member) {
      return Reflect.set(opened(key), key, member);
    },
  });
}

/**
 * The session as a fixture of the current describe block (see `useFixture`). `env` may be a
 * function, called in `beforeAll`, for variables known only once earlier hooks ran (e.g. the URL
 * of a loopback server declared above).
 */
export function useSession(env: Record<string, string> | (() => Record<string, string>) = {}, options: SessionOptions = {}): Session {
  return useFixture(
    () => openSession(typeof env === 'function' ? env() : env, options),
    (session) => session.close(),
  );
}
