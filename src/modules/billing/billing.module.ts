import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProjectsModule } from '../projects';
import { BillingController, StripeWebhookController } from './billing.controller';
import { BillingRepository } from './billing.repository';
import { BillingService } from './billing.service';
import { BillingAccount } from './entities/billing-account.entity';
import { BillingUsage } from './entities/billing-usage.entity';
import { StripeBillingService } from './stripe-billing.service';

@Module({
  imports: [ProjectsModule, TypeOrmModule.forFeature([BillingAccount, BillingUsage])],
  controllers: [BillingController, StripeWebhookController],
  providers: [BillingRepository, BillingService, StripeBillingService],
  exports: [BillingService],
})
export class BillingModule {}
