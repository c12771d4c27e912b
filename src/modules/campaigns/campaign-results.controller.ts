import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiJson } from '../../platform/http/openapi-responses';
import { ApiErrors } from '../../platform/http/openapi-errors';
import { CurrentProject, SecretKey } from '../auth';
import { CampaignResultsService } from './campaign-results.service';
import { CampaignRecipientsQuery, CampaignTimelineQuery } from './dto/campaign-results.query';
import { CampaignLinks, CampaignRecipientPage, CampaignTimeline } from './dto/campaign-results.response';
import { ParseUuidPipe } from '../../platform/http/parse-uuid.pipe';
import { campaignNotFound } from './campaigns.errors';

const CampaignId = new ParseUuidPipe(campaignNotFound);

/** A sent campaign's results for the dashboard: recipients, clicked links, opens and clicks over time. */
@ApiTags('campaigns')
@Controller('campaigns')
export class CampaignResultsController {
  constructor(private readonly results: CampaignResultsService) {}

  @SecretKey()
  @Get(':id/recipients')
  @ApiOperation({ summary: "List a campaign's recipients with their status" })
  @ApiErrors([400, 'The cursor is not one this list gave'], 404, 422)
  @ApiJson(200, CampaignRecipientPage, 'A cursor page of the recipients, by address; a filter selects exactly the recipients its stats counter counts')
  recipients(@CurrentProject() projectId: string, @Param('id', CampaignId) id: string, @Query() query: CampaignRecipientsQuery): Promise<CampaignRecipientPage> {
    return this.results.recipients(projectId, id, query);
  }

  @SecretKey()
  @Get(':id/links')
  @ApiOperation({ summary: "Count the clicks on a campaign's links" })
  @ApiErrors(404)
  @ApiJson(200, CampaignLinks, 'Each clicked link with its unique and total clicks')
  links(@CurrentProject() projectId: string, @Param('id', CampaignId) id: string): Promise<CampaignLinks> {
    return this.results.links(projectId, id);
  }

  @SecretKey()
  @Get(':id/timeline')
  @ApiOperation({ summary: "Bucket a campaign's unique opens and clicks over time" })
  @ApiErrors(404, 422)
  @ApiJson(200, CampaignTimeline, 'First opens and first clicks per hour or day, with the time sending started')
  timeline(@CurrentProject() projectId: string, @Param('id', CampaignId) id: string, @Query() query: CampaignTimelineQuery): Promise<CampaignTimeline> {
    return this.results.timeline(projectId, id, query);
  }
}
