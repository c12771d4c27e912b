import { createValidationPipe } from '../../../platform/http/validation';
import { UpdateProjectDto } from '../dto/update-project.dto';
import { contentExpiredAt, RETENTION_DEFAULTS, retentionCutoff, retentionOf, withRetentionChanges } from './retention-policy';

const DAY = 86_400_000;

describe('retentionOf', () => {
  it('takes the defaults (null, 30, null, 30) for keys not set, and a stored null as kept for good', () => {
    expect(retentionOf({ retention: {} })).toEqual({ eventsDays: null, emailContentDays: 30, emailsDays: null, inboundDays: 30 });
    expect(retentionOf({ retention: null })).toEqual(RETENTION_DEFAULTS);
    expect(retentionOf({ retention: { emailContentDays: null, eventsDays: 90 } })).toEqual({ eventsDays: 90, emailContentDays: null, emailsDays: null, inboundDays: 30 });
  });

  it('ignores a stored value outside the bounds (the default stands)', () => {
    expect(retentionOf({ retention: { inboundDays: 0, emailsDays: 3651, eventsDays: 1.5 as number } })).toEqual(RETENTION_DEFAULTS);
  });
});

describe('cutoffs', () => {
  const now = new Date('2026-06-30T12:00:00Z');

  it('is now minus the days, or null when kept for good', () => {
    const r = retentionOf({ retention: { eventsDays: 7 } });
    expect(retentionCutoff(r, 'eventsDays', now)).toEqual(new Date(now.getTime() - 7 * DAY));
    expect(retentionCutoff(r, 'emailContentDays', now)).toEqual(new Date(now.getTime() - 30 * DAY));
    expect(retentionCutoff(r, 'emailsDays', now)).toBeNull();
  });

  it("an email's content expires exactly emailContentDays after its creation", () => {
    const r = retentionOf({ retention: { emailContentDays: 2 } });
    const created = new Date(now.getTime() - 2 * DAY);
    expect(contentExpiredAt(r, created, now)).toEqual(now);
    expect(contentExpiredAt(r, new Date(created.getTime() + 1), now)).toBeNull();
    expect(contentExpiredAt(r, new Date(created.getTime() - DAY), now)).toEqual(new Date(now.getTime() - DAY));
    expect(contentExpiredAt(retentionOf({ retention: { emailContentDays: null } }), new Date(0), now)).toBeNull();
  });

  it('a PATCH changes only the keys it gives; null is stored as kept for good', () => {
    expect(withRetentionChanges({ eventsDays: 10, inboundDays: 5 }, { inboundDays: null, emailsDays: 400, eventsDays: undefined })).toEqual({ eventsDays: 10, inboundDays: null, emailsDays: 400 });
  });
});

describe('PATCH body: retention', () => {
  const pipe = createValidationPipe();
  const validate = (retention: unknown) => pipe.transform({ retention }, { type: 'body', metatype: UpdateProjectDto });
  const fieldsOf = async (retention: unknown): Promise<string[]> => {
    try {
      await validate(retention);
      return [];
    } catch (err) {
      return JSON.stringify(err).match(/"field":"([^"]+)"/g)?.map((m) => m.slice(9, -1)) ?? ['?'];
    }
  };

  it('takes whole days 1-3650 and null, any subset of the keys', async () => {
    expect(await fieldsOf({ eventsDays: 1, emailContentDays: 3650, emailsDays: null })).toEqual([]);
    expect(await fieldsOf({})).toEqual([]);
    const dto = (await validate({ inboundDays: 7 })) as UpdateProjectDto;
    expect(dto.retention?.inboundDays).toBe(7);
    expect(dto.retention?.eventsDays).toBeUndefined();
  });

  it.each([
    ['zero', { eventsDays: 0 }, 'retention.eventsDays'],
    ['past 3650', { emailsDays: 3651 }, 'retention.emailsDays'],
    ['a fraction', { inboundDays: 1.5 }, 'retention.inboundDays'],
    ['a string', { emailContentDays: '10' }, 'retention.emailContentDays'],
    ['negative', { eventsDays: -5 }, 'retention.eventsDays'],
    ['an unknown key', { eventDays: 5 }, 'retention'],
    ['not an object', 30, 'retention'],
    ['null', null, 'retention'],
  ])('refuses %s, naming the field', async (_label, retention, field) => {
    expect(await fieldsOf(retention)).toEqual([field]);
  });
});
