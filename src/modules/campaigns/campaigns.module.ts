import { TopicsModule } from '../topics';
import { TemplatesModule } from '../templates';
import { CampaignAnalyticsController } from './campaign-analytics.controller';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BillingModule } from '../billing';
import { DomainsModule } from '../domains';
import { EmailsModule } from '../emails';
import { ProjectsModule } from '../projects';
import { SegmentsModule } from '../segments';
import { CampaignsController } from './campaigns.controller';
import { CampaignResultsController } from './campaign-results.controller';
import { CampaignResultsRepository } from './campaign-results.repository';
import { CampaignResultsService } from './campaign-results.service';
import { CampaignPreviewsController } from './campaign-previews.controller';
import { CampaignsService } from './campaigns.service';
import { CampaignAnalyticsRepository } from './campaign-analytics.repository';
import { CampaignsRepository } from './campaigns.repository';
import { CampaignAudience } from './engine/campaign-audience';
import { CampaignEngine } from './engine/campaign-engine';
import { AbTests } from './engine/ab-test';
import { AbTestRepository } from './ab-test.repository';
import { ReleaseSchedule } from './engine/release-schedule';
import { ReleaseScheduleRepository } from './release-schedule.repository';
import { CampaignBatches } from './engine/campaign-batches';
import { CAMPAIGN_STAGES } from './engine/campaign-stage';

/** The engine's stages, in the order they apply (engine/campaign-stage.ts): an A/B test's share first, then the release schedule inside it. */
const CAMPAIGN_STAGE_CLASSES = [AbTests, ReleaseSchedule];
import { CampaignTick } from './worker/campaign-tick';
import { Campaign } from './entities/campaign.entity';
import { CampaignsUsage } from './campaigns.usage';
import { CampaignsActivity } from './campaigns.activity';
import { ActivityModule } from '../activity';

@Module({
  imports: [TypeOrmModule.forFeature([Campaign]), EmailsModule, TemplatesModule, DomainsModule, ProjectsModule, SegmentsModule, ActivityModule, BillingModule, TopicsModule],
  controllers: [CampaignsController, CampaignResultsController, CampaignPreviewsController, CampaignAnalyticsController],
  providers: [
    CampaignsService,
    CampaignResultsService,
    CampaignResultsRepository,
    CampaignsRepository,
    CampaignAnalyticsRepository,
    CampaignAudience,
    CampaignEngine,
    CampaignBatches,
    ...CAMPAIGN_STAGE_CLASSES,
    { provide: CAMPAIGN_STAGES, useFactory: (...stages: unknown[]) => stages, inject: CAMPAIGN_STAGE_CLASSES },
    AbTestRepository,
    ReleaseScheduleRepository,
    CampaignTick,
    CampaignsUsage,
    CampaignsActivity,
  ],
  exports: [CampaignsService],
})
export class CampaignsModule {}
