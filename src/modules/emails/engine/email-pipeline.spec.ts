import type { AppConfig } from '../../../config/config';
import type { SendTimeBounces } from './send-time-bounces';
import { TransportError, type EmailTransport, type OutgoingMessage, type TransportLane, type TransportResult } from '../transports/email-transport';
import type { EmailEvents } from './email-events';
import { EmailPipeline } from './email-pipeline';
import type { EmailStatusStore } from '../email-status.store';
import type { LoadedEmail } from '../email-status.rows';
import type { MessageBuilder } from './message-builder';
import { HandoverWindows } from './handover-windows';
import type { HandoverWindowSums, HandoverWindowsRepository } from '../handover-windows.repository';

/**
 * A connection-based transport whose connections open and whose hand-overs finish only when the
 * test says so; `slots` connections at most (like the SMTP pool).
 */
function gatedTransport(slots?: number) {
  const pending: Array<{ message: OutgoingMessage; accept: () => void }> = [];
  const connecting: Array<() => void> = [];
  let lent = 0;
  const waiting: Array<() => void> = [];
  const lane = (): TransportLane => ({
    send: (message) =>
      new Promise<TransportResult>((resolve) =>
        pending.push({
          message,
          accept: () => {
            resolve({ providerMessageId: '250 ok', delivered: true });
            lent--;
            waiting.shift()?.();
          },
        }),
      ),
    release: () => {
      lent--;
      waiting.shift()?.();
    },
  });
  const transport: EmailTransport = {
    kind: 'smtp',
    signsWithOwnDkim: true,
    ready: slots
      ? async () => {
          while (lent >= slots) await new Promise<void>((resolve) => waiting.push(resolve));
          lent++;
          await new Promise<void>((resolve) => connecting.push(resolve));
          return lane();
        }
      : undefined,
    send: (message) =>
      new Promise<TransportResult>((resolve) => pending.push({ message, accept: () => resolve({ providerMessageId: '250 ok', delivered: false }) })),
    check: async () => ({}),
    close: async () => undefined,
  };
  return { transport, pending, connecting };
}

const loaded = (id: string): LoadedEmail =>
  ({ id, projectId: 'p', contactId: null, templateId: null, campaignId: null, type: 'TRANSACTIONAL', fromAddress: 'a@example.com', toAddress: `${id}@example.com`, toName: null, variables: null, status: 'queued', queuedAt: new Date(), leaseActive: false }) as unknown as LoadedEmail;

function pipeline(transport: EmailTransport, overrides: Partial<Record<keyof EmailStatusStore, unknown>> = {}) {
  const claimed: string[] = [];
  const store = {
    load: async (id: string) => loaded(id),
    claim: async (id: string) => {
      claimed.push(id);
      return true;
    },
    markSent: async () => ({ recorded: true }),
    ...overrides,
  } as unknown as EmailStatusStore;
  const builder = {
    build: async (email: LoadedEmail) => ({
      kind: 'message',
      message: { messageId: `<${email.id}@example.com>`, from: { email: email.fromAddress }, to: { email: email.toAddress }, subject: 'Hi', html: '<p>Hi</p>', text: 'Hi', headers: {}, attachments: [] },
    }),
  } as unknown as MessageBuilder;
  const events = { payloads: () => [] } as unknown as EmailEvents;
  const config = { email: { sendConcurrency: 8 }, inbound: {} } as AppConfig;
  const added: HandoverWindowSums[] = [];
  const windows = new HandoverWindows({ add: async (sums: HandoverWindowSums) => void added.push(sums) } as unknown as HandoverWindowsRepository, transport);
  return { pipeline: new EmailPipeline(config, store, builder, transport, events, {} as SendTimeBounces, windows), claimed, windows, added };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `count()` reaches `n`, then a little longer, so a count that would overshoot shows. */
async function reaches(count: () => number, n: number): Promise<number> {
  for (let waited = 0; count() < n && waited < 5_000; waited += 5) await pause(5);
  await pause(50);
  return count();
}

describe('EmailPipeline hand-over', () => {
  it('claims an email only once the transport lends a ready connection, so one waiting for a connection stays queued', async () => {
    const { transport, pending, connecting } = gatedTransport(2);
    const { pipeline: p, claimed } = pipeline(transport);
    const done = Promise.all(['e1', 'e2', 'e3', 'e4'].map((id) => p.deliver(id, { isLast: false })));
    // Two connections opening: nothing claimed while they connect (a crash now loses nothing).
    expect(await reaches(() => connecting.length, 2)).toBe(2);
    expect(claimed).toHaveLength(0);
    connecting[0]();
    expect(await reaches(() => claimed.length, 1)).toBe(1);
    connecting[1]();
    expect(await reaches(() => claimed.length, 2)).toBe(2);
    expect(pending).toHaveLength(2);
    pending[0].accept();
    expect(await reaches(() => connecting.length, 3)).toBe(3);
    expect(claimed).toHaveLength(2);
    connecting[2]();
    expect(await reaches(() => claimed.length, 3)).toBe(3);
    pending[1].accept();
    expect(await reaches(() => connecting.length, 4)).toBe(4);
    connecting[3]();
    expect(await reaches(() => pending.length, 4)).toBe(4);
    pending[2].accept();
    pending[3].accept();
    await done;
    expect(new Set(claimed)).toEqual(new Set(['e1', 'e2', 'e3', 'e4']));
  });

  it('without connections, claims every email it works on at once (up to SEND_CONCURRENCY)', async () => {
    const { transport, pending } = gatedTransport(undefined);
    const { pipeline: p, claimed } = pipeline(transport);
    const done = Promise.all(['e1', 'e2', 'e3', 'e4'].map((id) => p.deliver(id, { isLast: false })));
    expect(await reaches(() => claimed.length, 4)).toBe(4);
    pending.forEach((h) => h.accept());
    await done;
  });

  it('retries the outcome write through an outage, never the hand-over', async () => {
    const { transport, pending } = gatedTransport(undefined);
    let writes = 0;
    const { pipeline: p } = pipeline(transport, {
      markSent: async () => {
        if (++writes < 3) throw new Error('Connection terminated unexpectedly');
        return { recorded: true };
      },
    });
    const done = p.deliver('e1', { isLast: false });
    expect(await reaches(() => pending.length, 1)).toBe(1);
    pending[0].accept();
    await done;
    expect([writes, pending.length]).toEqual([3, 1]);
  });

  it('marks an email whose hand-over was interrupted uncertain, and does not hand it over again', async () => {
    const { transport, pending } = gatedTransport(undefined);
    const uncertain: string[] = [];
    const { pipeline: p, claimed } = pipeline(transport, {
      load: async (id: string) => ({ ...loaded(id), status: 'sending', leaseActive: false }),
      markUncertain: async (id: string) => {
        uncertain.push(id);
        return true;
      },
    });
    await p.deliver('e1', { isLast: false });
    expect({ uncertain, claimed, pending: pending.length }).toEqual({ uncertain: ['e1'], claimed: [], pending: 0 });
  });

  it('neither claims nor hands over an email a warm-up cap holds to a later day', async () => {
    const { transport, pending } = gatedTransport(undefined);
    const { pipeline: p, claimed } = pipeline(transport, { load: async (id: string) => ({ ...loaded(id), held: true }) });
    await p.deliver('e1', { isLast: false });
    expect({ claimed, pending: pending.length }).toEqual({ claimed: [], pending: 0 });
  });

  it('takes back its own claim when the claim lost its answer (it may have committed), hands nothing over, and leaves the email for a retry', async () => {
    const { transport, pending, connecting } = gatedTransport(1);
    const tokens: string[] = [];
    const unclaims: Array<[string, string]> = [];
    let unclaimTries = 0;
    const { pipeline: p } = pipeline(transport, {
      claim: async (_id: string, _subject: string, _messageId: string, token: string) => {
        tokens.push(token);
        throw new Error('Connection terminated unexpectedly');
      },
      // The database still unreachable for the first take-back: retried until it lands.
      unclaim: async (id: string, token: string) => {
        if (++unclaimTries < 2) throw new Error('connect ECONNREFUSED');
        unclaims.push([id, token]);
        return true;
      },
    });
    const first = p.deliver('e1', { isLast: false }).then(
      () => 'resolved',
      (err: Error) => err.constructor.name,
    );
    expect(await reaches(() => connecting.length, 1)).toBe(1);
    connecting[0]();
    expect(await first).toBe('TransportError');
    expect({ unclaims, pending: pending.length }).toEqual({ unclaims: [['e1', tokens[0]]], pending: 0 });
    // The connection went back to the pool: the next email gets it.
    const next = p.deliver('e2', { isLast: false }).catch(() => undefined);
    expect(await reaches(() => connecting.length, 2)).toBe(2);
    connecting[1]();
    await next;
    expect(new Set(tokens).size).toBe(2);
  });

  it("measures each claimed email's window: the transport's part, and the part after its acceptance until the outcome is written", async () => {
    const { transport, pending } = gatedTransport(undefined);
    let finishWrite: (() => void) | undefined;
    const { pipeline: p, added, windows } = pipeline(transport, {
      markSent: () => new Promise((resolve) => (finishWrite = () => resolve({ recorded: true }))),
    });
    const done = p.deliver('e1', { isLast: false });
    expect(await reaches(() => pending.length, 1)).toBe(1);
    await pause(40); // the transport holds the message 40 ms …
    pending[0].accept();
    await reaches(() => (finishWrite ? 1 : 0), 1);
    await pause(120); // … and the outcome's write takes 120 ms more
    finishWrite!();
    await done;
    await windows.flush();
    expect(added).toHaveLength(1);
    const [sums] = added;
    expect(sums.transport).toBe('smtp');
    expect(sums.handovers).toBe(1);
    expect(sums.acceptedMs).toBeGreaterThanOrEqual(150);
    expect(sums.windowMs - sums.acceptedMs).toBeGreaterThanOrEqual(35);
    expect(sums.windowMs - sums.acceptedMs).toBeLessThan(sums.acceptedMs);
    // Flushed: nothing more until the next hand-over.
    await windows.flush();
    expect(added).toHaveLength(1);
  });

  it('counts a refused message in the window but not in its accepted part (it cannot have arrived)', async () => {
    const transport: EmailTransport = {
      kind: 'smtp',
      signsWithOwnDkim: true,
      send: async () => {
        throw new TransportError('550 no such user', true);
      },
      check: async () => undefined,
      close: async () => undefined,
    } as unknown as EmailTransport;
    const { pipeline: p, added, windows } = pipeline(transport, { markBounced: async () => false });
    await p.deliver('e1', { isLast: false });
    await windows.flush();
    expect(added).toEqual([expect.objectContaining({ handovers: 1, acceptedMs: 0 })]);
  });
});
