import type { AppConfig } from '../../../config/config';
import type { ContactDirectory } from '../../events/contact-directory';
import type { StoredEvent } from '../../events/events.types';
import type { DeliveriesStore, FanOut } from '../deliveries.store';
import type { SubscribedEndpoint, WebhooksRepository } from '../webhooks.repository';
import { WebhookFanOut } from './webhook-fanout';
import { backlogPriority, type WebhookQueue } from './webhook-queue';

const at = (iso: string) => new Date(iso);
const event = (id: string, name: string, createdAt: string): StoredEvent => ({ id, projectId: 'p1', contactId: null, name, data: {}, createdAt: at(createdAt) });

function fanOutWith(endpoints: SubscribedEndpoint[]) {
  const written: FanOut[] = [];
  const queued: unknown[] = [];
  const fanOut = new WebhookFanOut(
    { webhooks: { yieldMaxMs: 0 } } as AppConfig,
    { enabledOfProjects: async () => endpoints } as unknown as WebhooksRepository,
    {
      backlogOfEndpoints: async () => new Map([['p1', 60]]),
      insertForEvents: async (f: FanOut) => (written.push(f), f.pairs.map((_, i) => ({ id: `d${i}`, project_id: 'p1' }))),
    } as unknown as DeliveriesStore,
    { enqueueNew: async (p: unknown) => void queued.push(p) } as unknown as WebhookQueue,
    { emailsOf: async () => new Map() } as unknown as ContactDirectory,
  );
  return { fanOut, written, queued };
}

describe('WebhookFanOut', () => {
  it('sends an endpoint only the events recorded since it was created or last enabled, however late it runs', async () => {
    const { fanOut, written } = fanOutWith([
      { id: 'old', project_id: 'p1', events: ['*'], enabled_since: at('2026-11-28T10:00:00Z') },
      { id: 'new', project_id: 'p1', events: ['*'], enabled_since: at('2026-11-28T10:05:00Z') },
      { id: 'purchases', project_id: 'p1', events: ['purchase'], enabled_since: at('2026-11-28T09:00:00Z') },
    ]);
    await fanOut.handle([event('e1', 'signup', '2026-11-28T10:01:00Z'), event('e2', 'purchase', '2026-11-28T10:05:00Z'), event('e3', 'signup', '2026-11-28T09:59:59Z')]);
    const pairs = written.flatMap((f) => f.pairs.map((p) => `${p.endpointId}:${f.events[p.event]!.id}`)).sort();
    expect(pairs).toEqual(['new:e2', 'old:e1', 'old:e2', 'purchases:e2']);
  });

  it("queues each project's new deliveries with its backlog", async () => {
    const { fanOut, queued } = fanOutWith([{ id: 'old', project_id: 'p1', events: ['*'], enabled_since: at('2026-11-28T10:00:00Z') }]);
    await fanOut.handle([event('e1', 'signup', '2026-11-28T10:01:00Z')]);
    expect(queued).toEqual([[{ ids: ['d0'], backlog: 60 }]]);
  });

  it('writes nothing when no endpoint was enabled yet at the events’ time', async () => {
    const { fanOut, written } = fanOutWith([{ id: 'new', project_id: 'p1', events: ['*'], enabled_since: at('2026-11-28T10:05:00Z') }]);
    await fanOut.handle([event('e1', 'signup', '2026-11-28T10:01:00Z')]);
    expect(written).toEqual([]);
  });
});

describe('backlogPriority', () => {
  it('takes a project with nothing pending first, then each job behind its own project’s backlog, replays last', () => {
    expect(backlogPriority(0, 0)).toBeUndefined();
    expect(backlogPriority(24, 0)).toBeUndefined();
    expect(backlogPriority(0, 1)).toBe(1);
    expect(backlogPriority(60, 1)).toBe(3);
    expect(backlogPriority(1_000_000, 0)).toBe(99);
  });
});
