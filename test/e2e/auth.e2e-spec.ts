import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import request from 'supertest';
import { pause, startTestApp, TestApp } from '../support/app';
import { useFixture, waitFor, whiteBox } from '../support/session';

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
    // A known address asks next, through the same path: once its mail is out, the ghost's would be too.
    const known = uniqueEmail('known');
    await request(app.http).post('/auth/signup').send({ email: known, password: PASSWORD }).expect(201);
    await request(app.http).post('/auth/request-password-reset').send({ email: known }).expect(202);
    await tokenFromMail(app, known, 'http://mailroom.test/auth/reset-password');
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

  describe('login CSRF: a page on another site cannot sign the browser in', () => {
    const EVIL = 'https://evil.example';
    const setsCookie = (res: request.Response) => [res.headers['set-cookie'] ?? []].flat().some((c) => c.startsWith('mailroom_session='));

    it('refuses cross-site form posts to login and signup: 403, no cookie, nothing written', async () => {
      const email = uniqueEmail('csrf');
      await request(app.http).post('/auth/signup').set('X-Requested-With', 'XMLHttpRequest').send({ email, password: PASSWORD }).expect(201);
      const attempts = [
        // What an HTML <form> on another site can send: urlencoded, multipart or text/plain, Origin of that site (or none).
        request(app.http).post('/auth/login').set('Origin', EVIL).type('form').send({ email, password: PASSWORD }),
        request(app.http).post('/auth/login').type('form').send({ email, password: PASSWORD }),
        request(app.http).post('/auth/login').set('Origin', EVIL).set('Content-Type', 'text/plain').send(JSON.stringify({ email, password: PASSWORD })),
        request(app.http).post('/auth/login').set('Origin', EVIL).field('email', email).field('password', PASSWORD),
        request(app.http).post('/auth/login').set('Origin', 'null').type('form').send({ email, password: PASSWORD }),
      ];
      for (const attempt of attempts) {
        const res = await attempt;
        expect({ status: res.status, code: res.body.error?.code, cookie: setsCookie(res) }).toEqual({ status: 403, code: 'FORBIDDEN', cookie: false });
      }
      const attacker = uniqueEmail('attacker');
      const signup = await request(app.http).post('/auth/signup').set('Origin', EVIL).type('form').send({ email: attacker, password: PASSWORD });
      expect({ status: signup.status, cookie: setsCookie(signup) }).toEqual({ status: 403, cookie: false });
      // Nothing was written: the address is still free.
      await request(app.http).post('/auth/signup').set('X-Requested-With', 'XMLHttpRequest').send({ email: attacker, password: PASSWORD }).expect(201);
    });

    it('accepts the dashboard (X-Requested-With), JSON clients and form posts from its own origin', async () => {
      const email = uniqueEmail('csrf-ok');
      const dashboard = await request(app.http).post('/auth/signup').set('X-Requested-With', 'XMLHttpRequest').set('Origin', 'http://mailroom.test').send({ email, password: PASSWORD }).expect(201);
      expect(setsCookie(dashboard)).toBe(true);
      // A cross-site page cannot send application/json without a CORS preflight, which /auth never grants.
      expect(setsCookie(await request(app.http).post('/auth/login').send({ email, password: PASSWORD }).expect(200))).toBe(true);
      const sameOrigin = await request(app.http).post('/auth/login').set('Origin', 'http://mailroom.test').type('form').send({ email, password: PASSWORD }).expect(200);
      expect(setsCookie(sameOrigin)).toBe(true);
    });
  });

  it('documents the 403 of cross-site posts and the 429 with Retry-After in /docs/openapi.json', async () => {
    const doc = (await request(app.http).get('/docs/openapi.json').expect(200)).body;
    expect(Object.keys(doc.paths['/auth/signup'].post.responses)).toContain('403');
    const login = doc.paths['/auth/login'].post.responses;
    expect(Object.keys(login)).toEqual(expect.arrayContaining(['200', '403', '429']));
    expect(login['429'].headers).toHaveProperty('Retry-After');
  });

  it('never reflects a rejected password or token in the 422', async () => {
    const secrets = ['hunter2', 'x'.repeat(300) + 'TAIL', 'kept-out-of-errors'.repeat(20)];
    const bodies = (secret: string): Array<[string, object, string]> => [
      ['/auth/signup', { email: uniqueEmail('echo'), password: secret }, 'password'],
      ['/auth/login', { email: uniqueEmail('echo'), password: secret }, 'password'],
      ['/auth/reset-password', { token: 'x', password: secret }, 'password'],
      ['/auth/reset-password', { token: secret.repeat(2), password: 'long enough password' }, 'token'],
      ['/auth/verify-email', { token: secret.repeat(2) }, 'token'],
      ['/auth/signup', { email: uniqueEmail('echo'), password: [secret] }, 'password'],
    ];
    for (const secret of secrets) {
      for (const [path, body, field] of bodies(secret)) {
        const res = await request(app.http).post(path).set('X-Requested-With', 'XMLHttpRequest').send(body);
        expect(res.text).not.toContain(secret.slice(0, 7));
        // A token of an acceptable length is looked up: 400, unknown token.
        if (field === 'token' && secret.length * 2 <= 256) {
          expect(res.status).toBe(400);
          continue;
        }
        expect(res.status).toBe(422);
        expect(res.body.error.errors.map((e: { field: string }) => e.field)).toContain(field);
        for (const item of res.body.error.errors) if (item.field === 'password' || item.field === 'token') expect(item).not.toHaveProperty('received');
      }
    }
    // Other fields still show what was received.
    const email = await request(app.http).post('/auth/signup').send({ email: 'not-an-email', password: 'short' }).expect(422);
    expect(email.body.error.errors.find((e: { field: string }) => e.field === 'email')).toMatchObject({ received: 'not-an-email' });
    expect(email.text).not.toContain('short"');
  });

  it('needs a session for /users/@me', async () => {
    const res = await request(app.http).get('/users/@me').expect(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
    await request(app.http).get('/users/@me').set('Cookie', 'mailroom_session=forged').expect(401);
  });
});

/** A login from `ip` (an X-Forwarded-For the app may or may not believe, per TRUST_PROXY). */
const loginFrom = (app: TestApp, ip: string, email: string, password: string) =>
  request(app.http).post('/auth/login').set('X-Forwarded-For', ip).send({ email, password });

const sessionIps = async (app: TestApp, email: string): Promise<string[]> =>
  // Read in SQL: no endpoint shows the address a session was opened from.
  (await whiteBox(app).query<{ ip: string }>(`SELECT s.ip FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1 ORDER BY s.created_at`, [email])).map((r) => r.ip);

const randomIp = () => `203.0.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}`;

describe('auth: failed logins, no proxy trusted (the default)', () => {
  const app = useFixture(() => startTestApp(), (a) => a.close());

  it('takes the peer for the client whatever X-Forwarded-For says', async () => {
    const email = uniqueEmail('peer');
    await request(app.http).post('/auth/signup').set('X-Forwarded-For', '203.0.113.9').send({ email, password: PASSWORD }).expect(201);
    await loginFrom(app, '198.51.100.1, 203.0.113.9', email, PASSWORD).expect(200);
    expect(await sessionIps(app, email)).toEqual(['127.0.0.1', '127.0.0.1']);
  });

  it('a loopback client rotating X-Forwarded-For is still one source and meets the 429 (password spraying)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31 && !statuses.includes(429); i++) {
      const res = await loginFrom(app, randomIp(), uniqueEmail('spray'), 'wrong guess ' + i);
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
        expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
  });
});

describe('auth: failed logins behind a trusted proxy (TRUST_PROXY=127.0.0.1)', () => {
  const app = useFixture(() => startTestApp({ TRUST_PROXY: '127.0.0.1' }), (a) => a.close());

  it('takes the client from X-Forwarded-For: the address the proxy appended', async () => {
    const email = uniqueEmail('proxied');
    await request(app.http).post('/auth/signup').send({ email, password: PASSWORD }).expect(201);
    await loginFrom(app, '198.51.100.1, 203.0.113.9', email, PASSWORD).expect(200);
    expect(await sessionIps(app, email)).toEqual(['127.0.0.1', '203.0.113.9']);
  });

  it('slows the source that hammers an account without locking out the owner elsewhere', async () => {
    const email = uniqueEmail('target');
    await request(app.http).post('/auth/signup').send({ email, password: PASSWORD }).expect(201);
    const attacker = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < 12 && !statuses.includes(429); i++) statuses.push((await loginFrom(app, attacker, email, 'wrong guess ' + i)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // While the delay runs, even the right password from that source is refused: no oracle.
    const held = await loginFrom(app, attacker, email, PASSWORD).expect(429);
    expect(held.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(held.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The owner, from another address, signs in while the attacker keeps hammering.
    const owner = '198.51.100.77';
    const [hammering, ownLogin] = await Promise.all([
      (async () => {
        const seen: number[] = [];
        for (let i = 0; i < 8; i++) seen.push((await loginFrom(app, attacker, email, 'more guesses ' + i)).status);
        return seen;
      })(),
      loginFrom(app, owner, email, PASSWORD),
    ]);
    expect(ownLogin.status).toBe(200);
    expect(hammering).toContain(429);
    expect(hammering.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    await loginFrom(app, owner, email, PASSWORD).expect(200);
    // Another source guessing at the same account has its own allowance.
    await loginFrom(app, randomIp(), email, 'other guess').expect(401);
  });

  it('never locks the owner out, however many sources fail at the account', async () => {
    const email = uniqueEmail('besieged');
    await request(app.http).post('/auth/signup').send({ email, password: PASSWORD }).expect(201);
    // 15 failures at the account, from three sources (one account lock used to follow the 10th).
    for (const attacker of [randomIp(), randomIp(), randomIp()]) {
      for (let i = 0; i < 5; i++) await loginFrom(app, attacker, email, 'wrong guess ' + i).expect(401);
    }
    await loginFrom(app, '198.51.100.78', email, PASSWORD).expect(200);
  });

  it('lets the owner who mistyped sign in, and start afresh', async () => {
    const email = uniqueEmail('typo');
    await request(app.http).post('/auth/signup').send({ email, password: PASSWORD }).expect(201);
    const home = randomIp();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 4; i++) await loginFrom(app, home, email, `typo ${round} ${i}`).expect(401);
      await loginFrom(app, home, email, PASSWORD).expect(200);
    }
  });

  it('makes each further wait longer than the last', async () => {
    const email = uniqueEmail('growing');
    await request(app.http).post('/auth/signup').send({ email, password: PASSWORD }).expect(201);
    const attacker = randomIp();
    for (let i = 0; i < 5; i++) await loginFrom(app, attacker, email, 'wrong guess ' + i).expect(401);
    const waits: number[] = [];
    for (let round = 0; round < 2; round++) {
      const held = await loginFrom(app, attacker, email, 'too soon').expect(429);
      waits.push(Number(held.headers['retry-after']));
      await pause(waits[round] * 1000 + 150, 'the Retry-After the server asked for runs out');
      await loginFrom(app, attacker, email, 'after the wait ' + round).expect(401);
    }
    const last = await loginFrom(app, attacker, email, 'too soon').expect(429);
    waits.push(Number(last.headers['retry-after']));
    expect(waits[0]).toBeGreaterThanOrEqual(1);
    expect(waits[1]).toBeGreaterThan(waits[0]);
    expect(waits[2]).toBeGreaterThan(waits[1]);
  });

  it('paces many sources failing at one account, while the owner signs in from their own address', async () => {
    const email = uniqueEmail('botnet');
    const home = randomIp();
    await request(app.http).post('/auth/signup').set('X-Forwarded-For', home).send({ email, password: PASSWORD }).expect(201);
    // One guess from each of 20 sources: every one within its own allowance, all at one account.
    for (let i = 1; i <= 20; i++) await loginFrom(app, `192.0.2.${i}`, email, 'wrong guess ' + i).expect(401);
    const next = await loginFrom(app, '192.0.2.99', email, PASSWORD).expect(429);
    expect(next.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    await loginFrom(app, home, email, PASSWORD).expect(200);
  });

  it('counts only failed sign-ins from a source (an office signing many people in is not slowed)', async () => {
    const office = randomIp();
    const people = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const email = uniqueEmail('office');
        await request(app.http).post('/auth/signup').send({ email, password: PASSWORD }).expect(201);
        return email;
      }),
    );
    // 35 sign-ins from one address, past the 30 attempts an hour that failures are allowed.
    for (let i = 0; i < 35; i++) await loginFrom(app, office, people[i % people.length], PASSWORD).expect(200);
  });

  it('slows one source trying many accounts, not the others', async () => {
    const sprayer = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < 31 && !statuses.includes(429); i++) statuses.push((await loginFrom(app, sprayer, uniqueEmail('spray'), 'Summer2025!')).status);
    expect(statuses).toEqual([...Array(30).fill(401), 429]);
    await loginFrom(app, randomIp(), uniqueEmail('spray'), 'Summer2025!').expect(401);
  });
});

describe('auth: TRUST_PROXY as a hop count', () => {
  const app = useFixture(() => startTestApp({ TRUST_PROXY: '1' }), (a) => a.close());

  it('believes one hop: the last X-Forwarded-For entry, not what the client wrote before it', async () => {
    const email = uniqueEmail('hop');
    await request(app.http).post('/auth/signup').send({ email, password: PASSWORD }).expect(201);
    await loginFrom(app, '10.9.8.7, 203.0.113.50', email, PASSWORD).expect(200);
    await loginFrom(app, '203.0.113.51', email, PASSWORD).expect(200);
    expect(await sessionIps(app, email)).toEqual(['127.0.0.1', '203.0.113.50', '203.0.113.51']);
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
