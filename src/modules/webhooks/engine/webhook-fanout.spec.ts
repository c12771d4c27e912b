import type { AppConfig } from '../../../config/config';
import type { ContactDirectory } from '../../events/contact-directory';
import type { StoredEvent } from '../../events/events.types';
import type { DeliveriesStore, FanOut } from '../deliveries.store';
import type { SubscribedEndpoint, WebhooksRepository } from '../webhooks.repository';
import { WebhookFanOut } from './webhook-fanout';
import type { WebhookQueue } from './webhook-queue';

const at = (iso: string) => new Date(iso);
const event = (id: string, name: string, createdAt: string): StoredEvent => ({ id, projectId: 'p1', contactId: null, name, data: {}, createdAt: at(createdAt) });

function fanOutWith(endpoints: SubscribedEndpoint[]) {
  const written: FanOut[] = [];
  const fanOut = new WebhookFanOut(
    { webhooks: { yieldMaxMs: 0 } } as AppConfig,
    { enabledOfProjects: async () => endpoints } as unknown as WebhooksRepository,
    { insertForEvents: async (f: FanOut) => (written.push(f), f.pairs.map((_, i) => `d${i}`)) } as unknown as DeliveriesStore,
    { enqueueNew: async () => undefined } as unknown as WebhookQueue,
    { emailsOf: async () => new Map() } as unknown as ContactDirectory,
  );
  return { fanOut, written };
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

  it('writes nothing when no endpoint was enabled yet at the events’ time', async () => {
    const { fanOut, written } = fanOutWith([{ id: 'new', project_id: 'p1', events: ['*'], enabled_since: at('2026-11-28T10:05:00Z') }]);
    await fanOut.handle([event('e1', 'signup', '2026-11-28T10:01:00Z')]);
    expect(written).toEqual([]);
  });
});
