import { AppError } from '../../platform/http/app-error';
import type { ProjectsService } from '../projects/projects.service';
import type { BillingRepository } from './billing.repository';
import { BillingService } from './billing.service';
import { categoryLimit } from './billing.types';

function serviceWith(state: { limit: number | null; used: number | null } | undefined) {
  const repository = { state: jest.fn().mockResolvedValue({ limit: state?.limit ?? null, used: Number(state?.used ?? 0) }) } as unknown as BillingRepository;
  return new BillingService(repository, {} as ProjectsService);
}

describe('BillingService.assertAvailable', () => {
  it('passes under the cap and without one', async () => {
    await expect(serviceWith({ limit: 5, used: 4 }).assertAvailable('p', 'campaigns', 1)).resolves.toBeUndefined();
    await expect(serviceWith({ limit: null, used: 1e6 }).assertAvailable('p', 'campaigns', 1e6)).resolves.toBeUndefined();
    await expect(serviceWith(undefined).assertAvailable('p', 'campaigns', 10)).resolves.toBeUndefined();
  });

  it('refuses with 402 BILLING_LIMIT_EXCEEDED past the cap', async () => {
    const error = await serviceWith({ limit: 5, used: 4 }).assertAvailable('p', 'campaigns', 2).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ statusCode: 402, code: 'BILLING_LIMIT_EXCEEDED', extra: { details: { category: 'campaigns', limit: 5, used: 4, requested: 2 } } });
  });
});

describe('categoryLimit', () => {
  it('warns from 80% and blocks at the cap', () => {
    expect(categoryLimit(null, 10)).toEqual({ limit: null, usage: 10, percentage: 0, isWarning: false, isBlocked: false });
    expect(categoryLimit(10, 7)).toMatchObject({ percentage: 70, isWarning: false, isBlocked: false });
    expect(categoryLimit(10, 8)).toMatchObject({ percentage: 80, isWarning: true, isBlocked: false });
    expect(categoryLimit(3, 1)).toMatchObject({ percentage: 33.33 });
    expect(categoryLimit(10, 10)).toMatchObject({ percentage: 100, isWarning: true, isBlocked: true });
  });
});
