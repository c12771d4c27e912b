import { randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { useSession } from '../support/session';

const WEBHOOK_SECRET = 'whsec_test_' + randomBytes(12).toString('hex');

interface Recorded {
  method: string;
  path: string;
  form: URLSearchParams;
  authorization: string | undefined;
}

/** A loopback stand-in for the parts of Stripe's HTTP API the service calls. */
async function startFakeStripe(): Promise<{ url: string; requests: Recorded[]; server: Server }> {
  const requests: Recorded[] = [];
  let next = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stripe.test');
      const form = new URLSearchParams(req.method === 'GET' ? url.search : body);
      requests.push({ method: req.method ?? '', path: url.pathname, form, authorization: req.headers.authorization });
      const reply = (status: number, json: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': `req_${++next}` });
        res.end(JSON.stringify(json));
      };
      if (req.method === 'POST' && url.pathname === '/v1/customers') return reply(200, { id: `cus_${++next}`, object: 'customer' });
      if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') return reply(200, { id: `cs_${++next}`, object: 'checkout.session', url: `https://checkout.stripe.test/c/${next}` });
      if (req.method === 'POST' && url.pathname === '/v1/billing_portal/sessions') return reply(200, { id: `bps_${++next}`, object: 'billing_portal.session', url: `https://billing.stripe.test/p/${next}` });
      if (req.method === 'GET' && url.pathname === '/v1/invoices') {
        return reply(200, {
          object: 'list',
          has_more: false,
          url: '/v1/invoices',
          data: [{ id: 'in_1', object: 'invoice', number: 'MR-0001', status: 'paid', amount_due: 1900, amount_paid: 1900, currency: 'usd', created: 1763700000, hosted_invoice_url: 'https://invoice.stripe.test/in_1', invoice_pdf: 'https://invoice.stripe.test/in_1.pdf', customer: form.get('customer') }],
        });
      }
      reply(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname})` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, server };
}

/*
 * The webhook must name the project's Stripe customer (the one its checkout sent to Stripe) and is
 * judged by the subscription status it leaves, which no endpoint shows (read in SQL).
 */
describe('billing through Stripe (local fake of its API)', () => {
  let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
  beforeAll(async () => {
    stripe = await startFakeStripe();
  });
  const s = useSession(() => ({ STRIPE_SECRET_KEY: 'sk_test_mailroom', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_PRICE_ID: 'price_pro', STRIPE_API_URL: stripe.url }), { projectName: 'Paying' });
  // After the session's close (hooks run in declaration order), as before: the app stops first.
  afterAll(() => stripe?.server.close());
  const base = () => `/users/@me/projects/${s.project.id}`;
  const signed = (payload: string, secret = WEBHOOK_SECRET) => new Stripe('sk_test_unused').webhooks.generateTestHeaderString({ payload, secret });
  const webhook = (payload: string, signature?: string) => {
    const req = s.anonymous.post('/webhooks/incoming/stripe').set('Content-Type', 'application/json');
    if (signature) req.set('Stripe-Signature', signature);
    return req.send(payload);
  };
  // Read in SQL: no endpoint shows the Stripe subscription status a webhook stored.
  const subscriptionStatus = async () =>
    (await s.db.query<{ subscription_status: string | null }>(`SELECT subscription_status FROM billing_accounts WHERE project_id = $1`, [s.project.id]))[0].subscription_status;

  it('opens a checkout session for one customer per project, then the portal, and lists invoices', async () => {
    const first = await s.dashboard.post(`${base()}/checkout`).expect(200);
    expect(first.body).toEqual({ url: expect.stringMatching(/^https:\/\/checkout\.stripe\.test\//) });
    await s.dashboard.post(`${base()}/checkout`).expect(200);
    const customers = stripe.requests.filter((r) => r.path === '/v1/customers');
    expect(customers).toHaveLength(1);
    expect(customers[0].authorization).toBe('Bearer sk_test_mailroom');
    const session = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions')[1];
    expect(session.form.get('client_reference_id')).toBe(s.project.id);
    expect(session.form.get('line_items[0][price]')).toBe('price_pro');
    expect(session.form.get('customer')).toMatch(/^cus_/);

    const portal = await s.dashboard.post(`${base()}/billing-portal`).expect(200);
    expect(portal.body.url).toMatch(/^https:\/\/billing\.stripe\.test\//);
    const invoices = await s.dashboard.get(`${base()}/billing-invoices`).expect(200);
    expect(invoices.body.data).toEqual([
      { id: 'in_1', number: 'MR-0001', status: 'paid', amountDue: 1900, amountPaid: 1900, currency: 'usd', createdAt: new Date(1763700000 * 1000).toISOString(), hostedInvoiceUrl: 'https://invoice.stripe.test/in_1', invoicePdf: 'https://invoice.stripe.test/in_1.pdf' },
    ]);
    expect(stripe.requests.find((r) => r.path === '/v1/invoices')?.form.get('customer')).toBe(session.form.get('customer'));
  });

  it('takes signed webhooks only (400 for forged, unsigned or stale ones)', async () => {
    // The project's Stripe customer, as its checkout named it to Stripe.
    await s.dashboard.post(`${base()}/checkout`).expect(200);
    const customer = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!.form.get('customer');
    expect(customer).toMatch(/^cus_/);
    const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'customer.subscription.updated', data: { object: { id: 'sub_1', object: 'subscription', customer, status: 'active' } } }, null, 2);
    expect((await webhook(payload).expect(400)).body.error.code).toBe('BAD_REQUEST');
    await webhook(payload, signed(payload, 'whsec_forged')).expect(400);
    await webhook(payload.replace('active', 'past_due'), signed(payload)).expect(400);
    await webhook(payload, 't=1600000000,v1=' + 'a'.repeat(64)).expect(400);
    expect(await subscriptionStatus()).toBeNull();

    expect((await webhook(payload, signed(payload)).expect(200)).body).toEqual({ received: true });
    expect(await subscriptionStatus()).toBe('active');
  });

  it('lets only OWNER and ADMIN use billing', async () => {
    const member = await s.newUser();
    await s.dashboard.post(`/projects/${s.project.id}/members`, { email: member.email, role: 'MEMBER' }).expect(201);
    for (const req of [member.dashboard.post(`${base()}/checkout`), member.dashboard.post(`${base()}/billing-portal`), member.dashboard.get(`${base()}/billing-invoices`)]) {
      await req.expect(403);
    }
    const stranger = await s.newUser();
    await stranger.dashboard.post(`${base()}/checkout`).expect(404);
  });
});

describe('billing without Stripe', () => {
  const s = useSession({}, { projectName: 'Free' });

  it('answers 404 BILLING_DISABLED for checkout, portal, invoices and the webhook', async () => {
    const base = `/users/@me/projects/${s.project.id}`;
    for (const req of [s.dashboard.post(`${base}/checkout`), s.dashboard.post(`${base}/billing-portal`), s.dashboard.get(`${base}/billing-invoices`)]) {
      const res = await req.expect(404);
      expect(res.body.error.code).toBe('BILLING_DISABLED');
    }
    const hook = await s.anonymous.post('/webhooks/incoming/stripe').set('Content-Type', 'application/json').send('{}').expect(404);
    expect(hook.body.error.code).toBe('BILLING_DISABLED');
  });
});
