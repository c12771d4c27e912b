import { Body, Controller, Get, Headers, HttpCode, Param, Post, Put, Req } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiJson } from '../../platform/http/openapi-responses';
import { CurrentUser, Public, Session } from '../auth';
import { ProjectIdPipe } from '../projects';
import { BillingService } from './billing.service';
import type { BillingConsumptionResponse, BillingLimitsResponse } from './billing.types';
import { BillingConsumptionSchema, BillingLimitsSchema, BillingRedirectSchema, InvoiceListSchema } from './dto/billing.response';
import { UpdateBillingLimitsDto } from './dto/update-billing-limits.dto';
import { InvoiceResponse, StripeBillingService } from './stripe-billing.service';
import { ApiErrors } from '../../platform/http/openapi-errors';

/** OWNER and ADMIN only (a MEMBER gets 403, a non-member 404). */
@ApiTags('billing')
@Controller('users/@me/projects/:id')
export class BillingController {
  constructor(
    private readonly billing: BillingService,
    private readonly stripe: StripeBillingService,
  ) {}

  @Session()
  @Get('billing-limits')
  @ApiOperation({ summary: 'Get the billing limits and usage' })
  @ApiErrors([403, 'Only an OWNER or ADMIN of the project'], [404, 'No such project, or you are not a member'])
  @ApiJson(200, BillingLimitsSchema, 'Cap and usage of each category this month')
  limits(@CurrentUser() userId: string, @Param('id', ProjectIdPipe) id: string): Promise<BillingLimitsResponse> {
    return this.billing.limits(userId, id);
  }

  @Session()
  @Put('billing-limits')
  @ApiOperation({ summary: 'Set the billing limits' })
  @ApiErrors([403, 'Only an OWNER or ADMIN of the project'], [404, 'No such project, or you are not a member'], 422)
  @ApiJson(200, BillingLimitsSchema, 'The caps after the change, with usage')
  updateLimits(@CurrentUser() userId: string, @Param('id', ProjectIdPipe) id: string, @Body() dto: UpdateBillingLimitsDto): Promise<BillingLimitsResponse> {
    return this.billing.updateLimits(userId, id, dto);
  }

  @Session()
  @Get('billing-consumption')
  @ApiOperation({ summary: "Get this period's consumption" })
  @ApiErrors([403, 'Only an OWNER or ADMIN of the project'], [404, 'No such project, or you are not a member'])
  @ApiJson(200, BillingConsumptionSchema, 'Emails counted per category in the current period')
  consumption(@CurrentUser() userId: string, @Param('id', ProjectIdPipe) id: string): Promise<BillingConsumptionResponse> {
    return this.billing.consumption(userId, id);
  }

  @Session()
  @Post('checkout')
  @ApiOperation({ summary: 'Start a Stripe Checkout session' })
  @ApiErrors([403, 'Only an OWNER or ADMIN of the project'], [404, 'No such project (or you are not a member), or billing is off (BILLING_DISABLED: no Stripe key)'])
  @HttpCode(200)
  @ApiJson(200, BillingRedirectSchema, 'A Stripe Checkout session to subscribe (404 BILLING_DISABLED without Stripe)')
  checkout(@CurrentUser() userId: string, @Param('id', ProjectIdPipe) id: string): Promise<{ url: string }> {
    return this.stripe.checkout(userId, id);
  }

  @Session()
  @Post('billing-portal')
  @ApiOperation({ summary: 'Open the Stripe billing portal' })
  @ApiErrors([403, 'Only an OWNER or ADMIN of the project'], [404, 'No such project (or you are not a member), or billing is off (BILLING_DISABLED: no Stripe key)'])
  @HttpCode(200)
  @ApiJson(200, BillingRedirectSchema, 'A Stripe billing portal session (404 BILLING_DISABLED without Stripe)')
  portal(@CurrentUser() userId: string, @Param('id', ProjectIdPipe) id: string): Promise<{ url: string }> {
    return this.stripe.portal(userId, id);
  }

  @Session()
  @Get('billing-invoices')
  @ApiOperation({ summary: 'List the invoices' })
  @ApiErrors([403, 'Only an OWNER or ADMIN of the project'], [404, 'No such project (or you are not a member), or billing is off (BILLING_DISABLED: no Stripe key)'])
  @ApiJson(200, InvoiceListSchema, 'Invoices of the project (404 BILLING_DISABLED without Stripe)')
  invoices(@CurrentUser() userId: string, @Param('id', ProjectIdPipe) id: string): Promise<{ data: InvoiceResponse[] }> {
    return this.stripe.invoices(userId, id);
  }
}

@ApiTags('billing')
@Controller('webhooks/incoming')
export class StripeWebhookController {
  constructor(private readonly stripe: StripeBillingService) {}

  /** Public by necessity: authenticity comes from the Stripe-Signature header over the raw body. */
  @Public()
  @Post('stripe')
  @ApiOperation({ summary: 'Receive a Stripe webhook' })
  @HttpCode(200)
  @ApiExcludeEndpoint()
  receive(@Req() req: Request, @Headers('stripe-signature') signature?: string): Promise<{ received: true }> {
    return this.stripe.webhook(req.body, signature);
  }
}
