import { CampaignResultsService } from './campaign-results.service';
import type { CampaignResultsRepository } from './campaign-results.repository';
import type { CampaignsService } from './campaigns.service';
import type { Campaign } from './entities/campaign.entity';

const PROJECT = '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f';
const CAMPAIGN = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

function service(rows: Array<{ time: Date; opens: number; clicks: number }>) {
  const campaigns = { findOne: jest.fn(async () => ({ id: CAMPAIGN, sentAt: new Date('2026-03-01T09:30:00Z') }) as Campaign) } as unknown as CampaignsService;
  const repository = {
    timeline: jest.fn(async () => rows),
    recipients: jest.fn(async () => ({ rows: [], total: 0 })),
  } as unknown as CampaignResultsRepository;
  return { results: new CampaignResultsService(campaigns, repository), repository };
}

describe('CampaignResultsService', () => {
  it('fills the empty buckets between the first and the last with activity', async () => {
    const { results } = service([
      { time: new Date('2026-03-01T10:00:00Z'), opens: 3, clicks: 1 },
      { time: new Date('2026-03-01T13:00:00Z'), opens: 1, clicks: 0 },
    ]);
    const timeline = await results.timeline(PROJECT, CAMPAIGN, { interval: 'hour' });
    expect(timeline).toEqual({
      sentAt: '2026-03-01T09:30:00.000Z',
      interval: 'hour',
      data: [
        { time: '2026-03-01T10:00:00.000Z', opens: 3, clicks: 1 },
        { time: '2026-03-01T11:00:00.000Z', opens: 0, clicks: 0 },
        { time: '2026-03-01T12:00:00.000Z', opens: 0, clicks: 0 },
        { time: '2026-03-01T13:00:00.000Z', opens: 1, clicks: 0 },
      ],
    });
  });

  it('keeps the latest 2000 buckets of a long campaign', async () => {
    const { results } = service([
      { time: new Date('2026-01-01T00:00:00Z'), opens: 1, clicks: 0 },
      { time: new Date('2026-06-01T00:00:00Z'), opens: 2, clicks: 2 },
    ]);
    const { data } = await results.timeline(PROJECT, CAMPAIGN, {});
    expect(data).toHaveLength(2000);
    expect(data[data.length - 1]).toEqual({ time: '2026-06-01T00:00:00.000Z', opens: 2, clicks: 2 });
  });

  it('refuses a cursor it did not give (400) before reading anything', async () => {
    const { results, repository } = service([]);
    await expect(results.recipients(PROJECT, CAMPAIGN, { cursor: Buffer.from('{"e":1}').toString('base64url') })).rejects.toMatchObject({ status: 400 });
    expect(repository.recipients).not.toHaveBeenCalled();
  });
});
