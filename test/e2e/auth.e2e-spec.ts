import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import request from 'supertest';
import { startTestApp, TestApp } from '../support/app';
import { useFixture, waitFor } from '../support/session';

const PASSWORD = 'correct horse battery';

const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(16).slice(2, 8)}@example.com`;
const cookieOf = (res: request.Response): string => [res.headers['set-cookie']].flat()[0].split(';')[0];

/** Waits for the newest outbox message to `to` whose text contains a link to `path`, and returns the link's token. */
async function tokenFromMail(app: TestApp, to: string, path: string, seen: Set<string> = new Set()): Promise<string> {
  const dir = join(app.dataDir, 'outbox');
  return waitFor(async () => {
    if (!existsSync(dir)) return undefined;
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.eml'))) {
      if (seen.has(name)) continue;
      const mail = await simpleParser(readFileSync(join(dir, name)));
      const recipients = [mail.to].flat().flatMap((a) => a?.value ?? []).map((a) => a.address);
      if (!recipients.includes(to)) continue;
      const match = new RegExp(`${path.replace(/[/]/g, '\\/')}\\?token=([A-Za-z0-9_%-]+)`).exec(mail.text ?? '');
      if (match) {
        seen.add(name);
        return decodeURIComponent(match[1]);
      }
    }
    return undefined;
  }, 30_000);
}

const outboxCount = (app: TestApp, to: string) => {
  const dir = join(app.dataDir, 'outbox');
  if (!existsSync(dir)) return 0;
  return readdirSync(dir).filter((n) => n.endsWith('.eml') && readFileSync(join(dir, n), 'utf8').includes(to)).length;
};

describe('auth', () => {
  // No session: these tests sign up and log in themselves.
  const app = useFixture(() => startTestApp({ PUBLIC_URL: 'http://mailroom.test' }), (a) => a.close());

  it('signs up, sends a verification mail whose token verifies the email once', async () => {
    const email = uniqueEmail('verify');
    const signup = await request(app.http).post('/auth/signup').send({ email: email.toUpperCase(), password: PASSWORD }).expect(201);
    expect(signup.body).toEqual({ id: expect.any(String), email, emailVerified: false, createdAt: expect.any(String) });
    const cookie = cookieOf(signup);
    expect([signup.headers['set-cookie']].flat()[0]).toMatch(/HttpOnly/i);
    expect([signup.headers['set-cookie']].flat()[0]).toMatch(/SameSite=Lax/i);

    const token = await tokenFromMail(app, email, 'http://mailroom.test/auth/verify-email');
    const page = await request(app.http).get('/auth/verify-email').query({ token }).expect(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect((await request(app.http).get('/users/@me').set('Cookie', cookie).expect(200)).body.emailVerified).toBe(false);

    const verified = await request(app.http).post('/auth/verify-email').send({ token }).expect(200);
    expect(verified.body).toMatchObject({ email, emailVerified: true });
    expect((await request(app.http).get('/users/@me').set('Cookie', cookie).expect(200)).body.emailVerified).toBe(true);

    const again = await request(app.http).post('/auth/verify-email').send({ token }).expect(400);
    expect(again.body.error.code).toBe('BAD_REQUEST');
  });

  it('rejects unknown tokens and validates bodies', async () => {
    await request(app.http).post('/auth/verify-email').send({ token: 'nope' }).expect(400);
    await request(app.http).post('/auth/reset-password').send({ token: 'nope', password: 'long enough pw' }).expect(400);
    const missing = await request(app.http).post('/auth/verify-email').send({}).expect(422);
    expect(missing.body.error.errors[0]).toMatchObject({ field: 'token', code: 'required' });
    const short = await request(app.http).post('/auth/reset-password').send({ token: 'x', password: 'short' }).expect(422);
    expect(short.body.error.errors.map((e: { field: string }) => e.field)).toEqual(['password']);
  });

  it('answers request-* the same for unknown addresses and sends nothing', async () => {
    const ghost = uniqueEmail('ghost');
    const a = await request(app.http).post('/auth/request-password-reset').send({ email: ghost }).expect(202);
    const b = await request(app.http).post('/auth/request-verification').send({ email: ghost }).expect(202);
    expect(a.body).toEqual(b.body);
    await new Promise((r) => setTimeout(r, 200));
    expect(outboxCount(app, ghost)).toBe(0);
    await request(app.http).post('/auth/request-password-reset').send({ email: 'not-an-email' }).expect(422);
  });

  it('resends verification; only the newest link works', async () => {
    const email = uniqueEmail('resend');
    await request(app.http).post('/auth/signup').send({ email, password: PASSWORD }).expect(201);
    const seen = new Set<string>();
    const first = await tokenFromMail(app, email, 'http://mailroom.test/auth/verify-email', seen);
    await request(app.http).post('/auth/request-verification').send({ email }).expect(202);
    const second = await tokenFromMail(app, email, 'http://mailroom.test/auth/verify-email', seen);
    expect(second).not.toBe(first);
    await request(app.http).post('/auth/verify-email').send({ token: first }).expect(400);
    await request(app.http).post('/auth/verify-email').send({ token: second }).expect(200);
  });

  it('resets the password with a single-use token and ends every session', async () => {
    const email = uniqueEmail('reset');
    const signup = await request(app.http).post('/auth/signup').send({ email, password: PASSWORD }).expect(201);
    const oldCookie = cookieOf(signup);
    const login = await request(app.http).post('/auth/login').send({ email, password: PASSWORD }).expect(200);
    const otherCookie = cookieOf(login);

    await request(app.http).post('/auth/request-password-reset').send({ email }).expect(202);
    const token = await tokenFromMail(app, email, 'http://mailroom.test/auth/reset-password');
    await request(app.http).get('/auth/reset-password').query({ token }).expect(200).expect('content-type', /text\/html/);

    await request(app.http).post('/auth/reset-password').send({ token, password: 'a brand new password' }).expect(200);
    await request(app.http).get('/users/@me').set('Cookie', oldCookie).expect(401);
    await request(app.http).get('/users/@me').set('Cookie', otherCookie).expect(401);
    await request(app.http).post('/auth/reset-password').send({ token, password: 'yet another password' }).expect(400);

    await request(app.http).post('/auth/login').send({ email, password: PASSWORD }).expect(401);
    const fresh = await request(app.http).post('/auth/login').send({ email, password: 'a brand new password' }).expect(200);
    expect(fresh.body.emailVerified).toBe(true);
  });

  it('accepts the reset from the HTML form of the mailed link', async () => {
    const email = uniqueEmail('form');
    await request(app.http).post('/auth/signup').send({ email, password: PASSWORD }).expect(201);
    await request(app.http).post('/auth/request-password-reset').send({ email }).expect(202);
    const token = await tokenFromMail(app, email, 'http://mailroom.test/auth/reset-password');
    const res = await request(app.http).post('/auth/reset-password').type('form').send({ token, password: 'form password 1' }).expect(200);
    expect(res.text).toContain('password was changed');
    await request(app.http).post('/auth/login').send({ email, password: 'form password 1' }).expect(200);
  });

  it('rotates the session token on login and invalidates it on logout', async () => {
    const email = uniqueEmail('rotate');
    const signup = await request(app.http).post('/auth/signup').send({ email, password: PASSWORD }).expect(201);
    const first = cookieOf(signup);
    const login = await request(app.http).post('/auth/login').set('Cookie', first).send({ email, password: PASSWORD }).expect(200);
    const second = cookieOf(login);
    expect(second).not.toBe(first);
    // The token presented at login is replaced, so a planted token dies.
    await request(app.http).get('/users/@me').set('Cookie', first).expect(401);
    await request(app.http).get('/users/@me').set('Cookie', second).expect(200);

    const logout = await request(app.http).get('/auth/logout').set('Cookie', second).expect(200);
    expect([logout.headers['set-cookie']].flat()[0]).toMatch(/mailroom_session=;/);
    await request(app.http).get('/users/@me').set('Cookie', second).expect(401);
  });

  it('answers wrong credentials with 401 and a taken email with 409', async () => {
    const email = uniqueEmail('creds');
    await request(app.http).post('/auth/signup').send({ email, password: PASSWORD }).expect(201);
    await request(app.http).post('/auth/signup').send({ email, password: PASSWORD }).expect(409);
    const wrong = await request(app.http).post('/auth/login').send({ email, password: 'wrong password' }).expect(401);
    expect(wrong.body.error.code).toBe('UNAUTHORIZED');
    await request(app.http).post('/auth/login').send({ email: uniqueEmail('nobody'), password: PASSWORD }).expect(401);
  });

  it('lists no OAuth providers and reports feature flags on GET /config', async () => {
    expect((await request(app.http).get('/auth/oauth-config').expect(200)).body).toEqual({ providers: [] });
    const config = await request(app.http).get('/config').expect(200);
    expect(config.body).toMatchObject({ signupDisabled: false, emailTransport: 'outbox', billing: false, oauthProviders: [] });
  });

  it('needs a session for /users/@me', async () => {
    const res = await request(app.http).get('/users/@me').expect(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
    await request(app.http).get('/users/@me').set('Cookie', 'mailroom_session=forged').expect(401);
  });
});

describe('auth: login attempt limits', () => {
  const app = useFixture(() => startTestApp(), (a) => a.close());

  it('locks an account after 10 failures for a while, with Retry-After', async () => {
    const email = uniqueEmail('brute');
    await request(app.http).post('/auth/signup').send({ email, password: PASSWORD }).expect(201);
    for (let i = 0; i < 10; i++) await request(app.http).post('/auth/login').send({ email, password: 'wrong guess ' + i }).expect(401);
    const locked = await request(app.http).post('/auth/login').send({ email, password: PASSWORD }).expect(429);
    expect(locked.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(60);
    // Other accounts are unaffected.
    const other = uniqueEmail('fine');
    await request(app.http).post('/auth/signup').send({ email: other, password: PASSWORD }).expect(201);
    await request(app.http).post('/auth/login').send({ email: other, password: PASSWORD }).expect(200);
  });
});

describe('auth: signups disabled', () => {
  const app = useFixture(() => startTestApp({ SIGNUP_DISABLED: 'true', STRIPE_SECRET_KEY: 'sk_test_x' }), (a) => a.close());

  it('refuses signup with 403 and says so in /config', async () => {
    const res = await request(app.http).post('/auth/signup').send({ email: uniqueEmail('late'), password: PASSWORD }).expect(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect((await request(app.http).get('/config').expect(200)).body).toMatchObject({ signupDisabled: true, billing: true });
  });
});
