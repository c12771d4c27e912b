import { ApiProperty } from '@nestjs/swagger';
import type { BillingConsumptionResponse, BillingLimitsResponse, CategoryLimit } from '../billing.types';
import type { InvoiceResponse } from '../stripe-billing.service';

export class CategoryLimitSchema implements CategoryLimit {
  @ApiProperty({ description: 'Monthly cap; null when there is none', type: 'integer', nullable: true })
  limit!: number | null;
  @ApiProperty({ description: 'Emails counted this UTC calendar month', type: 'integer' })
  usage!: number;
  @ApiProperty({ description: 'usage as a percentage of limit (two decimals); 0 without a limit', type: Number })
  percentage!: number;
  @ApiProperty({ description: 'usage has reached 80% of limit', type: Boolean })
  isWarning!: boolean;
  @ApiProperty({ description: 'usage has reached limit: more emails of this category are refused with 402 BILLING_LIMIT_EXCEEDED', type: Boolean })
  isBlocked!: boolean;
}

export class BillingLimitsSchema implements BillingLimitsResponse {
  @ApiProperty({ description: 'Emails sent by workflow steps', type: () => CategoryLimitSchema })
  workflows!: CategoryLimitSchema;
  @ApiProperty({ description: 'Campaign emails', type: () => CategoryLimitSchema })
  campaigns!: CategoryLimitSchema;
  @ApiProperty({ description: 'Transactional emails (/v1/send)', type: () => CategoryLimitSchema })
  transactional!: CategoryLimitSchema;
  @ApiProperty({ description: 'Inbound emails received', type: () => CategoryLimitSchema })
  inbound!: CategoryLimitSchema;
}

export class BillingConsumptionSchema implements BillingConsumptionResponse {
  @ApiProperty({ description: 'Start of the current period, the first of the month 00:00 UTC (ISO 8601)', type: String })
  periodStart!: string;
  @ApiProperty({ description: 'End of the period (exclusive), the first of the next month (ISO 8601)', type: String })
  periodEnd!: string;
  @ApiProperty({ description: 'Emails sent by workflow steps this period', type: 'integer' })
  workflows!: number;
  @ApiProperty({ description: 'Campaign emails this period', type: 'integer' })
  campaigns!: number;
  @ApiProperty({ description: 'Transactional emails (/v1/send) this period', type: 'integer' })
  transactional!: number;
  @ApiProperty({ description: 'Inbound emails received this period', type: 'integer' })
  inbound!: number;
}

export class BillingRedirectSchema {
  @ApiProperty({ description: 'Stripe-hosted page to send the user to', type: String, format: 'uri' })
  url!: string;
}

export class InvoiceSchema implements InvoiceResponse {
  @ApiProperty({ description: 'Stripe invoice id', type: String })
  id!: string;
  @ApiProperty({ description: 'Invoice number; null on a draft', type: String, nullable: true })
  number!: string | null;
  @ApiProperty({ description: "Stripe's status: draft, open, paid, uncollectible or void", type: String, nullable: true })
  status!: string | null;
  @ApiProperty({ description: 'Amount due, in the smallest currency unit (e.g. cents)', type: 'integer' })
  amountDue!: number;
  @ApiProperty({ description: 'Amount paid, in the smallest currency unit', type: 'integer' })
  amountPaid!: number;
  @ApiProperty({ description: 'Three-letter ISO currency code, lowercase', type: String })
  currency!: string;
  @ApiProperty({ description: 'Creation time (ISO 8601)', type: String })
  createdAt!: string;
  @ApiProperty({ description: 'Stripe page where the invoice can be viewed and paid', type: String, nullable: true })
  hostedInvoiceUrl!: string | null;
  @ApiProperty({ description: 'PDF download link', type: String, nullable: true })
  invoicePdf!: string | null;
}

export class InvoiceListSchema {
  @ApiProperty({ description: 'Up to 100 invoices, newest first; empty before the first checkout', type: () => [InvoiceSchema] })
  data!: InvoiceSchema[];
}
