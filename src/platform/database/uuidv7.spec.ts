import { uuidv7, uuidv7Time } from './uuidv7';

describe('uuidv7', () => {
  it('puts the millisecond first, then version 7 and the RFC variant', () => {
    const at = Date.UTC(2026, 10, 30, 12, 34, 56, 789);
    const id = uuidv7(at);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(uuidv7Time(id)).toBe(at);
  });

  it('orders ids of later milliseconds after earlier ones, and differs within one millisecond', () => {
    const a = uuidv7(1_000);
    const b = uuidv7(2_000);
    expect(a < b).toBe(true);
    expect(uuidv7(5)).not.toBe(uuidv7(5));
  });

  it('knows no time for another version', () => {
    expect(uuidv7Time('9b2f3c1e-2a4b-4c5d-8e6f-0123456789ab')).toBeNull();
    expect(uuidv7Time('not-an-id')).toBeNull();
  });
});
