import { declaredComponents } from '../../../platform/http/declared-body';
import { checkDelivery, DELIVERY_PROPERTY, isTimezone, wallClock } from './delivery-settings';

describe('delivery settings', () => {
  it('accepts waves and a window, filling intervalMinutes and ordering the days', () => {
    expect(checkDelivery({ batchSize: 10, window: { days: ['fri', 'mon'], from: '08:00', to: '24:00', timezone: 'Europe/Paris' } })).toEqual({
      problems: [],
      delivery: { batchSize: 10, intervalMinutes: 60, window: { days: ['mon', 'fri'], from: '08:00', to: '24:00', timezone: 'Europe/Paris' } },
    });
    expect(checkDelivery(null)).toEqual({ problems: [], delivery: null });
    expect(checkDelivery({})).toEqual({ problems: [], delivery: null });
  });

  it('names each bad field once', () => {
    const fields = (v: unknown) => checkDelivery(v).problems.map((p) => `${p.field}:${p.code}`);
    expect(fields({ batchSize: 0 })).toEqual(['delivery.batchSize:invalid']);
    expect(fields({ batchSize: 5, intervalMinutes: 0 })).toEqual(['delivery.intervalMinutes:invalid']);
    expect(fields({ batchSize: 5, intervalMinutes: 10_081 })).toEqual(['delivery.intervalMinutes:invalid']);
    expect(fields({ intervalMinutes: 5 })).toEqual(['delivery.batchSize:required']);
    expect(fields({ window: { days: [], from: '25:00', to: '08:00', timezone: 'Nowhere/City' } })).toEqual([
      'delivery.window.days:invalid',
      'delivery.window.from:invalid',
      'delivery.window.timezone:invalid',
    ]);
    expect(fields({ window: { days: ['mon', 'mon'], from: '18:00', to: '08:00', timezone: 'UTC' } })).toEqual(['delivery.window.days:invalid', 'delivery.window.to:out_of_range']);
    expect(fields({ speed: 'fast' })).toEqual(['delivery.speed:unknown_field']);
    expect(fields([1])).toEqual(['delivery:invalid']);
  });

  it('reads wall-clock times without offset and real calendar dates only', () => {
    expect(wallClock('2026-12-01T09:00')).toBe('2026-12-01T09:00:00');
    expect(wallClock('2026-12-01T09:00:30.5')).toBe('2026-12-01T09:00:30');
    for (const bad of ['2026-12-01T09:00:00Z', '2026-12-01T09:00:00+01:00', '2026-02-30T09:00:00', '2026-12-01T24:00:00', '2026-12-01', 42, null]) expect(wallClock(bad)).toBeNull();
  });

  it('knows IANA zones as Intl does', () => {
    expect(isTimezone('America/New_York')).toBe(true);
    expect(isTimezone('UTC')).toBe(true);
    for (const bad of ['Mars/Base', '+02:00', '', 'Europe/Paris; DROP', 7]) expect(isTimezone(bad)).toBe(false);
  });
});

describe('delivery settings: the declaration', () => {
  it('gives each bad field its code, message and received value', () => {
    expect(checkDelivery({ batchSize: 1.5, window: { days: ['mon'], from: '8:00', to: '18:00', timezone: 'UTC', extra: 1 }, speed: 'fast' }).problems).toEqual([
      { field: 'delivery.batchSize', code: 'invalid', message: 'batchSize must be an integer from 1 to 1000000', received: 1.5 },
      { field: 'delivery.window.from', code: 'invalid', message: 'from must be a time HH:MM (00:00 to 23:59)', received: '8:00' },
      { field: 'delivery.window.extra', code: 'unknown_field', message: 'window has no field extra', received: 1 },
      { field: 'delivery.speed', code: 'unknown_field', message: 'delivery has no field speed', received: 'fast' },
    ]);
    expect(checkDelivery({ window: 'always' }).problems).toEqual([{ field: 'delivery.window', code: 'invalid', message: 'window must be an object {days, from, to, timezone}', received: 'always' }]);
    expect(checkDelivery({ intervalMinutes: 5, batchSize: null }).problems).toEqual([{ field: 'delivery.batchSize', code: 'required', message: 'batchSize is required with intervalMinutes', received: null }]);
    expect(checkDelivery('fast').problems).toEqual([{ field: 'delivery', code: 'invalid', message: 'delivery must be an object {batchSize?, intervalMinutes?, window?}', received: 'fast' }]);
  });

  it('emits DeliverySchema and DeliveryWindowSchema as the components the property refers to', () => {
    expect(DELIVERY_PROPERTY).toEqual({ type: 'object', allOf: [{ $ref: '#/components/schemas/DeliverySchema' }], nullable: true });
    const { DeliverySchema, DeliveryWindowSchema } = declaredComponents();
    expect(DeliverySchema).toEqual({
      type: 'object',
      properties: {
        batchSize: { type: 'integer', minimum: 1, maximum: 1_000_000 },
        intervalMinutes: { type: 'integer', minimum: 1, maximum: 10_080 },
        window: { $ref: '#/components/schemas/DeliveryWindowSchema' },
      },
      additionalProperties: false,
    });
    expect(DeliveryWindowSchema).toMatchObject({
      type: 'object',
      required: ['days', 'from', 'to', 'timezone'],
      properties: { days: { type: 'array', items: { type: 'string', enum: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] } }, from: { type: 'string', example: '08:00' } },
    });
  });
});
