import type { TopicsService } from '../topics/topics.service';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/config';
import type { ContactFieldsService } from '../contacts/contact-fields.service';
import { AudienceService } from './audience.service';
import type { SegmentsRepository } from './segments.repository';
import type { FilterTree, SegmentDefinition } from '../filters';

const PROJECT = '00000000-0000-4000-8000-000000000001';
const SEGMENT = '00000000-0000-4000-8000-000000000002';
const REFERENCED = '00000000-0000-4000-8000-000000000003';
const tree = (...filters: Array<Record<string, unknown>>): FilterTree => ({ logic: 'AND', groups: [{ filters }] }) as unknown as FilterTree;

/** An AudienceService over a fake catalogue: the segments table and the project's key types. */
function audienceOver(segments: SegmentDefinition[], keyTypes: Array<{ key: string; type: string }>) {
  const repository = {
    definition: jest.fn(async (_projectId: string, id: string) => segments.find((s) => s.id === id) ?? null),
    definitions: jest.fn(async (_projectId: string, ids: string[]) => segments.filter((s) => ids.includes(s.id))),
  } as unknown as SegmentsRepository;
  const fields = { keyTypes: jest.fn(async () => keyTypes) } as unknown as ContactFieldsService;
  const topics = { knownRules: jest.fn(async () => new Map()) } as unknown as TopicsService;
  return new AudienceService({} as DataSource, repository, { segments: { queryTimeoutMs: 1_000 } } as AppConfig, fields, topics);
}

describe('AudienceService.segmentAudience key', () => {
  const recent = tree({ field: 'data.score', operator: 'gt', value: 500 }, { field: 'event.purchase', operator: 'triggeredWithin', value: 30, unit: 'days' });
  const dynamic = (condition: FilterTree, id = SEGMENT): SegmentDefinition => ({ id, name: 'S', type: 'DYNAMIC', condition }) as SegmentDefinition;
  const numeric = [{ key: 'score', type: 'number' }];

  it('stays the same while time passes, though the condition it compiles to does not', async () => {
    const audience = audienceOver([dynamic(recent)], numeric);
    const first = await audience.segmentAudience(PROJECT, SEGMENT);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await audience.segmentAudience(PROJECT, SEGMENT);
    expect(second.key).toBe(first.key);
    expect(second.where.values).not.toEqual(first.where.values);
  });

  it('changes with a value, a key type, or a referenced segment', async () => {
    const key = async (segments: SegmentDefinition[], types = numeric) => (await audienceOver(segments, types).segmentAudience(PROJECT, SEGMENT)).key;
    const base = await key([dynamic(recent)]);
    expect(await key([dynamic(tree({ field: 'data.score', operator: 'gt', value: 501 }, { field: 'event.purchase', operator: 'triggeredWithin', value: 30, unit: 'days' }))])).not.toBe(base);
    expect(await key([dynamic(recent)], [{ key: 'score', type: 'string' }])).not.toBe(base);
    const referencing = tree({ field: `segment.${REFERENCED}`, operator: 'memberOfSegment' });
    const before = await key([dynamic(referencing), dynamic(tree({ field: 'data.score', operator: 'gt', value: 1 }), REFERENCED)]);
    const after = await key([dynamic(referencing), dynamic(tree({ field: 'data.score', operator: 'gt', value: 2 }), REFERENCED)]);
    expect(after).not.toBe(before);
  });

  it('is one per static segment, and an unknown segment is 422', async () => {
    const audience = audienceOver([{ id: SEGMENT, name: 'S', type: 'STATIC', condition: null } as SegmentDefinition], []);
    expect((await audience.segmentAudience(PROJECT, SEGMENT)).key).toBe(`static:${SEGMENT}`);
    await expect(audience.segmentAudience(PROJECT, REFERENCED)).rejects.toMatchObject({ status: 422 });
  });
});
