import { AppError } from '../../platform/http/app-error';
import type { BillingCategory } from './billing.types';

export const billingLimitExceeded = (category: BillingCategory, limit: number | null, used: number, requested: number) =>
  new AppError(402, 'BILLING_LIMIT_EXCEEDED', `This would exceed the project's monthly ${category} email limit`, {
    details: { category, limit, used, requested },
    suggestion: 'An OWNER or ADMIN can raise the limit with PUT /users/@me/projects/:id/billing-limits, or wait for the next calendar month (UTC).',
  });

export const billingDisabled = () =>
  new AppError(404, 'BILLING_DISABLED', 'Billing is not enabled on this deployment', {
    suggestion: 'Set STRIPE_SECRET_KEY to enable checkout, the billing portal and invoices.',
  });

export const invalidStripeSignature = () => new AppError(400, 'BAD_REQUEST', 'The Stripe-Signature header does not verify this payload');
