import type { AppConfig } from '../../../config/config';
import type { DeliveryFeedbackService } from '../inbound/delivery-feedback.service';
import type { EmailTransport, OutgoingMessage, TransportResult } from '../transports/email-transport';
import type { EmailEvents } from './email-events';
import { EmailPipeline } from './email-pipeline';
import type { EmailStatusStore, LoadedEmail } from './email-status';
import type { MessageBuilder } from './message-builder';

/** A transport whose hand-overs stay open until the test resolves them. */
function gatedTransport(handoverSlots?: number) {
  const pending: Array<{ message: OutgoingMessage; accept: () => void }> = [];
  const transport: EmailTransport = {
    kind: 'smtp',
    signsWithOwnDkim: true,
    handoverSlots,
    send: (message) =>
      new Promise<TransportResult>((resolve) => pending.push({ message, accept: () => resolve({ providerMessageId: '250 ok', delivered: false }) })),
    check: async () => ({}),
    close: async () => undefined,
  };
  return { transport, pending };
}

const loaded = (id: string): LoadedEmail =>
  ({ id, projectId: 'p', contactId: null, templateId: null, campaignId: null, type: 'TRANSACTIONAL', fromAddress: 'a@example.com', toAddress: `${id}@example.com`, toName: null, variables: null, status: 'queued', queuedAt: new Date(), leaseActive: false }) as unknown as LoadedEmail;

function pipeline(transport: EmailTransport) {
  const claimed: string[] = [];
  const store = {
    load: async (id: string) => loaded(id),
    claim: async (id: string) => {
      claimed.push(id);
      return true;
    },
    markSent: async () => ({ recorded: true }),
  } as unknown as EmailStatusStore;
  const builder = {
    build: async (email: LoadedEmail) => ({
      kind: 'message',
      message: { messageId: `<${email.id}@example.com>`, from: { email: email.fromAddress }, to: { email: email.toAddress }, subject: 'Hi', html: '<p>Hi</p>', text: 'Hi', headers: {}, attachments: [] },
    }),
  } as unknown as MessageBuilder;
  const events = { payloads: () => [] } as unknown as EmailEvents;
  const config = { email: { sendConcurrency: 8 } } as AppConfig;
  return { pipeline: new EmailPipeline(config, store, builder, transport, events, {} as DeliveryFeedbackService), claimed };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `count()` reaches `n`, then a little longer, so a count that would overshoot shows. */
async function reaches(count: () => number, n: number): Promise<number> {
  for (let waited = 0; count() < n && waited < 5_000; waited += 5) await pause(5);
  await pause(50);
  return count();
}

describe('EmailPipeline hand-over slots', () => {
  it('claims an email only once one of the transport slots is free, so one waiting for a connection stays queued', async () => {
    const { transport, pending } = gatedTransport(2);
    const { pipeline: p, claimed } = pipeline(transport);
    const done = Promise.all(['e1', 'e2', 'e3', 'e4'].map((id) => p.deliver(id, { isLast: false })));
    expect(await reaches(() => claimed.length, 2)).toBe(2);
    expect(pending).toHaveLength(2);
    pending[0].accept();
    expect(await reaches(() => claimed.length, 3)).toBe(3);
    pending[1].accept();
    expect(await reaches(() => pending.length, 4)).toBe(4);
    pending[2].accept();
    pending[3].accept();
    await done;
    expect(new Set(claimed)).toEqual(new Set(['e1', 'e2', 'e3', 'e4']));
  });

  it('without a bound, claims every email it works on at once (up to SEND_CONCURRENCY)', async () => {
    const { transport, pending } = gatedTransport(undefined);
    const { pipeline: p, claimed } = pipeline(transport);
    const done = Promise.all(['e1', 'e2', 'e3', 'e4'].map((id) => p.deliver(id, { isLast: false })));
    expect(await reaches(() => claimed.length, 4)).toBe(4);
    pending.forEach((h) => h.accept());
    await done;
  });
});
