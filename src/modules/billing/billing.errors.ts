import { AppError } from '../../platform/http/app-error';
import type { BillingCategory } from './billing.types';

/** 402: the project's monthly cap of a category would be passed (a caller that sends on its own, e.g. a workflow step, catches it by class). */
export class BillingLimitExceeded extends AppError {
  constructor(category: BillingCategory, limit: number | null, used: number, requested: number) {
    super(402, 'BILLING_LIMIT_EXCEEDED', `This would exceed the project's monthly ${category} email limit`, {
      details: { category, limit, used, requested },
      suggestion: 'An OWNER or ADMIN can raise the limit with PUT /users/@me/projects/:id/billing-limits, or wait for the next calendar month (UTC).',
    });
  }
}

export const billingLimitExceeded = (category: BillingCategory, limit: number | null, used: number, requested: number) =>
  new BillingLimitExceeded(category, limit, used, requested);

export const billingDisabled = () =>
  new AppError(404, 'BILLING_DISABLED', 'Billing is not enabled on this deployment', {
    suggestion: 'Set STRIPE_SECRET_KEY to enable checkout, the billing portal and invoices.',
  });

export const invalidStripeSignature = () => new AppError(400, 'BAD_REQUEST', 'The Stripe-Signature header does not verify this payload');
