import type { DataSource, EntityManager } from 'typeorm';
import type { ReleaseSchedule } from './engine/release-schedule';
import { empty } from '../../platform/database/sql-fragment';
import type { EmailsService } from '../emails/emails.service';
import type { EmailPreviews } from '../emails/use-cases/email-previews';
import type { BillingService } from '../billing/billing.service';
import type { DomainsService } from '../domains/domains.service';
import type { CampaignsRepository } from './campaigns.repository';
import { CampaignsService } from './campaigns.service';
import type { CampaignAudience } from './engine/campaign-audience';
import type { AbTests } from './engine/ab-test';
import type { Campaign } from './entities/campaign.entity';
import type { LiquidCheck } from '../templates/liquid-check';

const PROJECT = '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f';
const CAMPAIGN = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

/**
 * Cancel against a database that aborts the first attempt as a deadlock victim, as PostgreSQL did
 * in CI when the skip of the queued emails met the pipeline's batched transitions (the request
 * answered 500). Each attempt is a transaction of its own; the aborted one committed nothing.
 */
function cancelAgainstDeadlock(deadlocks: number) {
  let committed = 0;
  const em = {} as EntityManager;
  const dataSource = {
    transaction: jest.fn(async (work: (em: EntityManager) => Promise<unknown>) => {
      const result = await work(em);
      committed++;
      return result;
    }),
  } as unknown as DataSource;
  let failures = deadlocks;
  const repository = {
    // The part of the audience not yet written, counted under the campaign's lock.
    preview: jest.fn(async () => ({ total: 0, skipped: {}, unskipped: 0 })),
    findOne: jest.fn(async () => ({ id: CAMPAIGN, projectId: PROJECT, status: 'SENDING' }) as Campaign),
    lockForCancel: jest.fn(async () => ({ status: 'SENDING', audience_done: false, fixed_at: '2026-01-01 00:00:00+00', cursor_created_at: null, cursor_id: null })),
    markCancelled: jest.fn(async () => undefined),
  } as unknown as CampaignsRepository;
  const emails = {
    cancelQueued: jest.fn(async () => {
      if (failures-- > 0) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
    }),
  } as unknown as EmailsService;
  const audience = { condition: jest.fn(async () => empty), topic: jest.fn(async () => null) } as unknown as CampaignAudience;
  const service = new CampaignsService(dataSource, {} as DomainsService, audience, repository, {} as BillingService, emails, {} as EmailPreviews, { unwrittenParts: async () => null } as unknown as AbTests, {} as ReleaseSchedule, {} as LiquidCheck);
  return { service, dataSource, emails, committed: () => committed };
}

describe('CampaignsService.cancel', () => {
  it('runs the cancel again when the database aborts it as a deadlock victim', async () => {
    const { service, dataSource, emails, committed } = cancelAgainstDeadlock(1);
    await expect(service.cancel(PROJECT, CAMPAIGN)).resolves.toMatchObject({ id: CAMPAIGN });
    expect(dataSource.transaction).toHaveBeenCalledTimes(2);
    expect(emails.cancelQueued).toHaveBeenCalledTimes(2);
    expect(committed()).toBe(1);
  });

  it('gives the conflict up after three attempts, having committed nothing', async () => {
    const { service, dataSource, committed } = cancelAgainstDeadlock(3);
    await expect(service.cancel(PROJECT, CAMPAIGN)).rejects.toMatchObject({ code: '40P01' });
    expect(dataSource.transaction).toHaveBeenCalledTimes(3);
    expect(committed()).toBe(0);
  });
});
