import { contactExportJson } from './export-json';
import { keysetBatches, PERSONAL_DATA_SECTIONS, PersonalDataRegistry, type PersonalDataSection } from './personal-data.registry';

const subject = { id: 'cnt_1', email: 'ann@example.com' };
const at = new Date('2026-11-29T22:00:00.000Z');

async function text(chunks: AsyncIterable<string>): Promise<{ text: string; pieces: number }> {
  let out = '';
  let pieces = 0;
  for await (const chunk of chunks) {
    out += chunk;
    pieces += 1;
  }
  return { text: out, pieces };
}

const section = (name: PersonalDataSection['name'], batches: unknown[][]): PersonalDataSection => ({
  name,
  erase: async () => {},
  export: async function* () {
    yield* batches;
  },
});

describe('PersonalDataRegistry', () => {
  it('gives every section in export order, an unregistered one as an empty list', async () => {
    const registry = new PersonalDataRegistry();
    registry.register(section('emails', [[{ id: 'e1' }]]));
    registry.register(section('topics', [[{ slug: 'news' }]]));
    expect(registry.all().map((s) => s.name)).toEqual([...PERSONAL_DATA_SECTIONS]);
    const { text: json } = await text(contactExportJson('p', subject, { id: subject.id }, registry.all(), at));
    expect(JSON.parse(json)).toEqual({ contact: { id: 'cnt_1' }, topics: [{ slug: 'news' }], consent: [], events: [], emails: [{ id: 'e1' }], executions: [], inboundMessages: [], exportedAt: at.toISOString() });
  });

  it('refuses a section registered twice', () => {
    const registry = new PersonalDataRegistry();
    registry.register(section('events', []));
    expect(() => registry.register(section('events', []))).toThrow(/twice/);
  });
});

describe('contactExportJson', () => {
  it('writes one piece per batch, and the pieces make one JSON document', async () => {
    const events = Array.from({ length: 5 }, (_, b) => Array.from({ length: 3 }, (_, i) => ({ n: b * 3 + i, text: 'quote " and \u2028' })));
    const { text: json, pieces } = await text(contactExportJson('p', subject, { id: subject.id }, [section('events', [[], ...events, []]), section('emails', [])], at));
    const parsed = JSON.parse(json) as { events: Array<{ n: number }>; emails: unknown[] };
    expect(parsed.events.map((e) => e.n)).toEqual(Array.from({ length: 15 }, (_, i) => i));
    expect(parsed.emails).toEqual([]);
    // contact, five event batches, the events' close, the emails' list, exportedAt.
    expect(pieces).toBe(9);
  });

  it('asks a section for its next batch only when the previous piece was taken', async () => {
    const asked: number[] = [];
    const lazy: PersonalDataSection = {
      name: 'events',
      erase: async () => {},
      export: async function* () {
        for (let b = 0; b < 3; b++) {
          asked.push(b);
          yield [{ b }];
        }
      },
    };
    const pieces = contactExportJson('p', subject, {}, [lazy], at);
    await pieces.next();
    expect(asked).toEqual([]);
    await pieces.next();
    expect(asked).toEqual([0]);
  });
});

describe('keysetBatches', () => {
  it('walks the pages until a page gives no cursor', async () => {
    const seen: Array<string | null> = [];
    const pages: Record<string, { items: number[]; next: string | null }> = { start: { items: [1, 2], next: 'a' }, a: { items: [3], next: null } };
    const batches: number[][] = [];
    for await (const batch of keysetBatches<number, string>(async (after) => {
      seen.push(after);
      return pages[after ?? 'start'];
    })) batches.push(batch);
    expect(batches).toEqual([[1, 2], [3]]);
    expect(seen).toEqual([null, 'a']);
  });
});
