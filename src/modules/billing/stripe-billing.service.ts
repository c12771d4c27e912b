import { Injectable } from '@nestjs/common';
import type Stripe from 'stripe';
import type { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { AppError } from '../../platform/http/app-error';
import { sdks } from '../../platform/sdks';
import { ProjectsService } from '../projects';
import { billingDisabled, invalidStripeSignature } from './billing.errors';
import { BillingRepository } from './billing.repository';

export interface InvoiceResponse {
  id: string;
  number: string | null;
  status: string | null;
  amountDue: number;
  amountPaid: number;
  currency: string;
  createdAt: string;
  hostedInvoiceUrl: string | null;
  invoicePdf: string | null;
}

type StripeClient = InstanceType<typeof Stripe>;

/** Checkout, billing portal, invoices and the webhook, through the `stripe` package; 404 BILLING_DISABLED without STRIPE_SECRET_KEY. */
@Injectable()
export class StripeBillingService {
  private readonly stripe: StripeClient | null;

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly repository: BillingRepository,
    private readonly projects: ProjectsService,
  ) {
    const api = config.stripeApiUrl ? new URL(config.stripeApiUrl) : null;
    this.stripe = config.stripeSecretKey
      ? new (sdks.stripe())(config.stripeSecretKey, {
          maxNetworkRetries: 1,
          timeout: 20_000,
          telemetry: false,
          ...(api ? { host: api.hostname, port: api.port || (api.protocol === 'https:' ? 443 : 80), protocol: api.protocol === 'https:' ? 'https' : 'http' } : {}),
        })
      : null;
  }

  async checkout(userId: string, projectId: string): Promise<{ url: string }> {
    const stripe = this.client();
    await this.projects.requireRole(projectId, userId, 'ADMIN');
    if (!this.config.stripePriceId) throw billingDisabled();
    const customer = await this.customerOf(stripe, projectId);
    const session = await this.call(() =>
      stripe.checkout.sessions.create({
        mode: 'subscription',
        customer,
        client_reference_id: projectId,
        line_items: [{ price: this.config.stripePriceId!, quantity: 1 }],
        success_url: `${this.config.publicUrl}/app/?billing=success`,
        cancel_url: `${this.config.publicUrl}/app/?billing=cancelled`,
      }),
    );
    return { url: session.url ?? '' };
  }

  async portal(userId: string, projectId: string): Promise<{ url: string }> {
    const stripe = this.client();
    await this.projects.requireRole(projectId, userId, 'ADMIN');
    const customer = await this.customerOf(stripe, projectId);
    const session = await this.call(() => stripe.billingPortal.sessions.create({ customer, return_url: `${this.config.publicUrl}/app/` }));
    return { url: session.url };
  }

  async invoices(userId: string, projectId: string): Promise<{ data: InvoiceResponse[] }> {
    const stripe = this.client();
    await this.projects.requireRole(projectId, userId, 'ADMIN');
    const customer = await this.repository.stripeCustomerId(projectId);
    if (!customer) return { data: [] };
    const list = await this.call(() => stripe.invoices.list({ customer, limit: 100 }));
    return {
      data: list.data.map((invoice) => ({
        id: invoice.id ?? '',
        number: invoice.number ?? null,
        status: invoice.status ?? null,
        amountDue: invoice.amount_due,
        amountPaid: invoice.amount_paid,
        currency: invoice.currency,
        createdAt: new Date(invoice.created * 1000).toISOString(),
        hostedInvoiceUrl: invoice.hosted_invoice_url ?? null,
        invoicePdf: invoice.invoice_pdf ?? null,
      })),
    };
  }

  /** Verifies Stripe's signature over the raw body (400 otherwise), then records the customer and subscription state. */
  async webhook(rawBody: unknown, signature: string | undefined): Promise<{ received: true }> {
    const stripe = this.client();
    if (!this.config.stripeWebhookSecret) throw billingDisabled();
    if (!Buffer.isBuffer(rawBody) || !signature) throw invalidStripeSignature();
    let event: ReturnType<StripeClient['webhooks']['constructEvent']>;
    try {
      event = stripe.webhooks.constructEvent(rawBody, signature, this.config.stripeWebhookSecret);
    } catch {
      throw invalidStripeSignature();
    }
    const object = event.data.object as { client_reference_id?: string | null; customer?: string | { id: string } | null; status?: string };
    const customer = typeof object.customer === 'string' ? object.customer : (object.customer?.id ?? null);
    if (event.type === 'checkout.session.completed' && object.client_reference_id && customer) {
      await this.repository.setStripeCustomerFromCheckout(object.client_reference_id, customer);
    } else if (event.type.startsWith('customer.subscription.') && customer) {
      const status = event.type === 'customer.subscription.deleted' ? 'canceled' : (object.status ?? null);
      await this.repository.setSubscriptionStatusByCustomerAnyProject(customer, status);
    }
    return { received: true };
  }

  private client(): StripeClient {
    if (!this.stripe) throw billingDisabled();
    return this.stripe;
  }

  /** The project's Stripe customer, created once (the unique index keeps one per project under races). */
  private async customerOf(stripe: StripeClient, projectId: string): Promise<string> {
    const known = await this.repository.stripeCustomerId(projectId);
    if (known) return known;
    const customer = await this.call(() => stripe.customers.create({ metadata: { projectId } }, { idempotencyKey: `mailroom-customer-${projectId}` }));
    return this.repository.keepStripeCustomer(projectId, customer.id);
  }

  /** Stripe's own failures are 502 with its message, never a 500. */
  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      const message = (error as { message?: string }).message ?? 'Stripe request failed';
      throw new AppError(502, 'STRIPE_ERROR', `Stripe: ${message}`);
    }
  }
}
