import { addVerifiedDomain, TestDnsServer } from '../support/dns-server';
import { type Session, useFixture, useSession } from '../support/session';
import { eventually } from '../support/wait';

/** The onboarding checklist of `GET /projects/:id/setup-state` as the dashboard's overview reads it. */
const setupState = async (s: Session) => (await s.dashboard.get(`/projects/${s.project.id}/setup-state`).expect(200)).body;

describe('setup-state with DNS verification', () => {
  const dns = useFixture(() => TestDnsServer.start(), (d) => d.close());
  const s = useSession(() => ({ ...dns.env(), EMAIL_TRANSPORT: 'smtp', SMTP_URL: 'smtp://127.0.0.1:9', DOMAIN_VERIFICATION: 'dns' }));

  it('counts a domain as verified only once its records check out', async () => {
    expect(await setupState(s)).toMatchObject({ hasDomain: false, hasVerifiedDomain: false, completed: false });
    await s.api.post('/domains', { domain: 'pending.example.com' }).expect(201);
    expect(await setupState(s)).toMatchObject({ hasDomain: true, hasVerifiedDomain: false });
    await addVerifiedDomain(s.api, dns, 'verified.example.com');
    expect(await setupState(s)).toMatchObject({ hasDomain: true, hasVerifiedDomain: true });
  });

  it('reports workflows once the project has one', async () => {
    expect((await setupState(s)).hasWorkflows).toBe(false);
    await s.api.post('/workflows', { name: 'Onboarding', eventName: 'signed.up' }).expect(201);
    expect((await setupState(s)).hasWorkflows).toBe(true);
  });
});

describe('setup-state with DOMAIN_VERIFICATION=off', () => {
  const s = useSession({ DOMAIN_VERIFICATION: 'off', DNS_SERVERS: '127.0.0.1:9' });

  it('counts any domain as verified, as the domains API shows it, and completes after a first email', async () => {
    expect(await setupState(s)).toMatchObject({ hasDomain: false, hasVerifiedDomain: false, hasWorkflows: false, hasSentEmail: false, completed: false });
    const domain = await s.api.post('/domains', { domain: 'off.example.com' }).expect(201);
    expect(domain.body.verified).toBe(true);
    expect(await setupState(s)).toMatchObject({ hasDomain: true, hasVerifiedDomain: true, completed: false });
    await s.api.post('/v1/send', { to: 'someone@example.net', from: 'hello@off.example.com', subject: 'Hi', body: '<p>Hi</p>' }).expect(200);
    await eventually(async () => expect(await setupState(s)).toMatchObject({ hasSentEmail: true, completed: true }));
  });

  it('reports workflows once the project has one', async () => {
    await s.api.post('/workflows', { name: 'Onboarding', eventName: 'signed.up' }).expect(201);
    expect((await setupState(s)).hasWorkflows).toBe(true);
  });
});
