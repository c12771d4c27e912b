import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProjectsModule } from '../projects/projects.module';
import { BillingController, StripeWebhookController } from './billing.controller';
import { BillingService } from './billing.service';
import { BillingAccount } from './entities/billing-account.entity';
import { BillingUsage } from './entities/billing-usage.entity';
import { StripeBillingService } from './stripe-billing.service';

@Module({
  imports: [ProjectsModule, TypeOrmModule.forFeature([BillingAccount, BillingUsage])],
  controllers: [BillingController, StripeWebhookController],
  providers: [BillingService, StripeBillingService],
  exports: [BillingService],
})
export class BillingModule {}
