import { AppError } from '../../../platform/http/app-error';
import type { Campaign } from '../entities/campaign.entity';
import { AbTests, abLetters } from './ab-test';
import { testShareSize, variantSizes } from '../sql/ab-test.sql';
import { LiquidCheck } from '../../templates/liquid-check';

describe('AbTests (pure parts)', () => {
  // Short sources: checked in this thread, the renderer pool is not used.
  const ab = new AbTests(null as never, null as never, null as never, null as never, new LiquidCheck(null as never));

  it('names the variants A (the campaign) then B, C, … in order', () => {
    expect(abLetters({ variants: [{ subject: 'x' }, { subject: 'y' }, { subject: 'z' }, { subject: 'w' }], testPercent: 20, metric: 'opens', waitMinutes: 30 })).toEqual(['A', 'B', 'C', 'D', 'E']);
  });

  it('applies the defaults, trims sender names, and names a Liquid error by its nested path', async () => {
    const { settings, problems } = await ab.settingsOf({ variants: [{ subject: 'ok' }, { subject: '{{ broken', body: '{% if a %}', fromName: '  ' }], waitMinutes: 45 });
    expect(settings).toEqual({
      variants: [
        { subject: 'ok', body: null, fromName: null },
        { subject: '{{ broken', body: '{% if a %}', fromName: null },
      ],
      testPercent: 20,
      metric: 'opens',
      waitMinutes: 45,
    });
    expect(problems.map((p) => p.field)).toEqual(['abTest.variants[1].subject', 'abTest.variants[1].body']);
    await expect(ab.settingsOf(null)).resolves.toEqual({ settings: null, problems: [] });
  });

  it('refuses recipient time zones for an A/B campaign only', () => {
    const abCampaign = { abTest: { variants: [{ subject: 'B' }], testPercent: 20, metric: 'opens', waitMinutes: 30 } } as Campaign;
    expect(() => ab.assertSendable(abCampaign, 'recipient')).toThrow(AppError);
    expect(() => ab.assertSendable(abCampaign, undefined)).not.toThrow();
    expect(() => ab.assertSendable({ abTest: null } as Campaign, 'recipient')).not.toThrow();
  });

  it('sizes the test share as round(testPercent% × audience), at least one per variant, split to within one', () => {
    expect(testShareSize(40, 50, 2)).toBe(20);
    expect(variantSizes(20, 2)).toEqual([10, 10]);
    expect(testShareSize(41, 20, 3)).toBe(8);
    expect(variantSizes(8, 3)).toEqual([3, 3, 2]);
    expect(testShareSize(7, 50, 2)).toBe(4);
    expect(testShareSize(6, 5, 3)).toBe(3);
    expect(testShareSize(2, 20, 3)).toBe(2);
    expect(variantSizes(2, 3)).toEqual([1, 1, 0]);
    expect(testShareSize(0, 50, 2)).toBe(0);
    for (let n = 1; n <= 300; n++) {
      for (const pct of [5, 20, 33, 50]) {
        for (const count of [2, 3, 5]) {
          const share = testShareSize(n, pct, count);
          const sizes = variantSizes(share, count);
          expect(sizes.reduce((a, b) => a + b, 0)).toBe(share);
          expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
          expect(share).toBe(Math.min(n, Math.max(count, Math.round((pct * n) / 100))));
        }
      }
    }
  });
});
