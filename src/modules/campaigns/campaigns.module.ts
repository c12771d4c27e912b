import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BillingModule } from '../billing/billing.module';
import { DomainsModule } from '../domains/domains.module';
import { EmailsModule } from '../emails/emails.module';
import { ProjectsModule } from '../projects/projects.module';
import { SegmentsModule } from '../segments/segments.module';
import { CampaignsController } from './campaigns.controller';
import { CampaignPreviewsController } from './campaign-previews.controller';
import { CampaignsService } from './campaigns.service';
import { CampaignsRepository } from './campaigns.repository';
import { CampaignAudience } from './engine/campaign-audience';
import { CampaignEngine } from './engine/campaign-engine';
import { CampaignTick } from './worker/campaign-tick';
import { Campaign } from './entities/campaign.entity';
import { CampaignsUsage } from './campaigns.usage';
import { CampaignsActivity } from './campaigns.activity';
import { ActivityModule } from '../activity/activity.module';

@Module({
  imports: [TypeOrmModule.forFeature([Campaign]), EmailsModule, DomainsModule, ProjectsModule, SegmentsModule, ActivityModule, BillingModule],
  controllers: [CampaignsController, CampaignPreviewsController],
  providers: [CampaignsService, CampaignsRepository, CampaignAudience, CampaignEngine, CampaignTick, CampaignsUsage, CampaignsActivity],
  exports: [CampaignsService],
})
export class CampaignsModule {}
