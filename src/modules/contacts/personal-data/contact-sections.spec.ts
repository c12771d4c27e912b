import { automock } from '../../../../test/support/automock';
import { EventsQueriesService, EventsService, toEventResponse } from '../../events';
import { TopicsService } from '../../topics';
import { ContactsService } from '../contacts.service';
import type { Contact } from '../entities/contact.entity';
import { CONSENT_EVENTS, ContactSections } from './contact-sections';
import { PersonalDataRegistry } from './personal-data.registry';

type TopicResponse = Awaited<ReturnType<TopicsService['list']>>[number];

const subject = { id: 'cnt_0123456789abcdef0123456789abcdef', email: 'ann@example.com' };
const topic = (slug: string, def: 'opt_in' | 'opt_out') => ({ id: slug, name: slug, slug, description: null, default: def, public: true, createdAt: '', updatedAt: '' }) as TopicResponse;

async function collect(batches: AsyncIterable<unknown[]>): Promise<unknown[][]> {
  const out: unknown[][] = [];
  for await (const batch of batches) out.push(batch);
  return out;
}

function setUp() {
  const registry = new PersonalDataRegistry();
  const contacts = automock(ContactsService, { findById: async () => ({ id: subject.id, topics: { beta: true, news: false } }) as unknown as Contact });
  const topics = automock(TopicsService, { list: async () => [topic('news', 'opt_out'), topic('beta', 'opt_in'), topic('tips', 'opt_out'), topic('labs', 'opt_in')] });
  const pages = [
    { data: [{ id: 'e3' }, { id: 'e2' }], cursor: 'c1', hasMore: true, total: 0 },
    { data: [{ id: 'e1' }], cursor: null, hasMore: false, total: 0 },
  ];
  const events = automock(EventsQueriesService, { page: (async () => pages.shift()) as unknown as EventsQueriesService['page'] });
  const eventRows = automock(EventsService, { removeOfContact: jest.fn(async () => {}) });
  new ContactSections(registry, contacts, topics, events, eventRows).onModuleInit();
  const section = (name: string) => registry.all().find((s) => s.name === name)!;
  return { section, events, eventRows, registry };
}

describe('ContactSections', () => {
  it("lists every topic with the contact's choice and its effective membership", async () => {
    const { section } = setUp();
    const [batch] = await collect(section('topics').export('p1', subject));
    expect((batch as Array<{ slug: string; choice: boolean | null; member: boolean }>).map((t) => [t.slug, t.choice, t.member])).toEqual([
      ['news', false, false],
      ['beta', true, true],
      ['tips', null, true],
      ['labs', null, false],
    ]);
  });

  it("pages the contact's events with the event list's mapper, to the last page", async () => {
    const { section, events } = setUp();
    expect(await collect(section('events').export('p1', subject))).toEqual([[{ id: 'e3' }, { id: 'e2' }], [{ id: 'e1' }]]);
    expect(events.page.mock.calls.map(([projectId, filter, query, map, withTotal]) => [projectId, filter, query.cursor, map, withTotal])).toEqual([
      ['p1', { contactId: subject.id }, undefined, toEventResponse, false],
      ['p1', { contactId: subject.id }, 'c1', toEventResponse, false],
    ]);
  });

  it('gives as consent the events that record it', async () => {
    const { section, events } = setUp();
    await collect(section('consent').export('p1', subject));
    expect(events.page.mock.calls[0][1]).toEqual({ contactId: subject.id, names: { anyOf: CONSENT_EVENTS } });
  });

  it("erases the contact's events by its id; topics and consent have nothing of their own", async () => {
    const { registry, eventRows } = setUp();
    await registry.eraser('events')('p1', subject);
    await registry.eraser('topics')('p1', subject);
    await registry.eraser('consent')('p1', subject);
    expect(eventRows.removeOfContact).toHaveBeenCalledTimes(1);
    expect(eventRows.removeOfContact).toHaveBeenCalledWith('p1', subject.id, undefined);
  });
});
