import { AppError } from '../../../platform/http/app-error';
import type { Campaign } from '../entities/campaign.entity';
import { AbTests, abLetters } from './ab-test';
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
});
