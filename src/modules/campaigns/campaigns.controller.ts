import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { ApiEnvelope, ApiJson, ApiNoContent } from '../../platform/http/openapi-responses';
import { Audited, fromParam } from '../audit';
import { CurrentProject, SecretKey } from '../auth';
import { CampaignsService } from './campaigns.service';
import {
  CampaignAudiencePreview,
  CampaignCursorPage,
  CampaignPage,
  CampaignResponse,
  CampaignSendResponse,
  CampaignStats,
  CampaignTestResponse,
  ResendUncertainResponse,
  toCampaignResponse,
} from './dto/campaign.response';
import { CreateCampaignDto } from './dto/create-campaign.dto';
import { ListCampaignsQuery } from './dto/list-campaigns.query';
import { SendCampaignDto, TestCampaignDto } from './dto/send-campaign.dto';
import { PickAbWinnerDto } from './dto/ab-test.dto';
import { ApiErrors } from '../../platform/http/openapi-errors';
import { ParseUuidPipe } from '../../platform/http/parse-uuid.pipe';
import { campaignNotFound } from './campaigns.errors';

const CampaignId = new ParseUuidPipe(campaignNotFound);

@ApiTags('campaigns')
@Controller('campaigns')
export class CampaignsController {
  constructor(private readonly campaigns: CampaignsService) {}

  @SecretKey()
  @Get()
  @ApiOperation({ summary: 'List campaigns' })
  @ApiErrors([400, 'An unknown status filter'], 422)
  @ApiExtraModels(CampaignPage, CampaignCursorPage)
  @ApiJson(
    200,
    { oneOf: [{ $ref: getSchemaPath(CampaignPage) }, { $ref: getSchemaPath(CampaignCursorPage) }] },
    'A page of campaigns: the offset list (page/pageSize, the default), or the cursor list when limit or cursor is given',
  )
  list(@CurrentProject() projectId: string, @Query() query: ListCampaignsQuery): Promise<CampaignPage | CampaignCursorPage> {
    return this.campaigns.list(projectId, query);
  }

  @SecretKey()
  @Post()
  @ApiOperation({ summary: 'Create a campaign' })
  @ApiErrors(422)
  @ApiEnvelope(201, CampaignResponse, 'The campaign, in DRAFT')
  async create(@CurrentProject() projectId: string, @Body() dto: CreateCampaignDto): Promise<{ success: true; data: CampaignResponse }> {
    return { success: true, data: toCampaignResponse(await this.campaigns.create(projectId, dto)) };
  }

  @SecretKey()
  @Get(':id')
  @ApiOperation({ summary: 'Get a campaign' })
  @ApiErrors(404)
  @ApiJson(200, CampaignResponse, 'The campaign')
  async get(@CurrentProject() projectId: string, @Param('id', CampaignId) id: string): Promise<CampaignResponse> {
    return toCampaignResponse(await this.campaigns.findOne(projectId, id));
  }

  @SecretKey()
  @Put(':id')
  @ApiOperation({ summary: 'Replace a campaign' })
  @ApiErrors(404, [409, 'The campaign is not DRAFT or SCHEDULED'], 422)
  @ApiJson(200, CampaignResponse, 'The campaign with every field replaced (DRAFT or SCHEDULED only, else 409)')
  async replace(@CurrentProject() projectId: string, @Param('id', CampaignId) id: string, @Body() dto: CreateCampaignDto): Promise<CampaignResponse> {
    return toCampaignResponse(await this.campaigns.replace(projectId, id, dto));
  }

  @SecretKey()
  @Delete(':id')
  @ApiOperation({ summary: 'Delete a campaign' })
  @ApiErrors(404, [409, 'The campaign is SCHEDULED or SENDING'])
  @HttpCode(204)
  @ApiNoContent('Deleted (409 while SCHEDULED or SENDING)')
  async remove(@CurrentProject() projectId: string, @Param('id', CampaignId) id: string): Promise<void> {
    await this.campaigns.remove(projectId, id);
  }

  @SecretKey()
  @Post(':id/duplicate')
  @ApiOperation({ summary: 'Duplicate a campaign' })
  @ApiErrors(404)
  @ApiJson(201, CampaignResponse, 'The copy, in DRAFT')
  async duplicate(@CurrentProject() projectId: string, @Param('id', CampaignId) id: string): Promise<CampaignResponse> {
    return toCampaignResponse(await this.campaigns.duplicate(projectId, id));
  }

  @SecretKey()
  @Post(':id/send')
  @Audited('campaign.sent', { target: { type: 'campaign', id: fromParam('id') } })
  @ApiOperation({ summary: 'Send or schedule a campaign' })
  @ApiErrors([400, 'scheduledFor is not a date'], [403, 'The sender domain is not a verified domain of the project (DOMAIN_NOT_VERIFIED)'], 404, [409, 'The campaign is not DRAFT or SCHEDULED'], 422)
  @HttpCode(200)
  @ApiJson(200, CampaignSendResponse, 'Sending now, or scheduled (from DRAFT or SCHEDULED, else 409)')
  send(@CurrentProject() projectId: string, @Param('id', CampaignId) id: string, @Body() dto: SendCampaignDto): Promise<CampaignSendResponse> {
    return this.campaigns.send(projectId, id, dto);
  }

  @SecretKey()
  @Post(':id/cancel')
  @Audited('campaign.cancelled', { target: { type: 'campaign', id: fromParam('id') } })
  @ApiOperation({ summary: 'Cancel a campaign' })
  @ApiErrors(404, [409, 'The campaign is not SCHEDULED or SENDING'])
  @HttpCode(200)
  @ApiJson(200, CampaignResponse, 'The campaign: a SCHEDULED one is back in DRAFT, a SENDING one CANCELLED (any other status is 409)')
  async cancel(@CurrentProject() projectId: string, @Param('id', CampaignId) id: string): Promise<CampaignResponse> {
    return toCampaignResponse(await this.campaigns.cancel(projectId, id));
  }

  @SecretKey()
  @Post(':id/ab/winner')
  @ApiOperation({ summary: "Pick an A/B test's winner by hand" })
  @ApiErrors(404, [409, 'The campaign is not SENDING, has no A/B test, or its winner is already decided'], [422, 'variant is not one of the campaign\'s letters'])
  @HttpCode(200)
  @ApiJson(
    200,
    CampaignResponse,
    'The winner is decided now: during the wait the rest of the audience starts getting it at once; while the test share is still being sent, the rest follows as soon as it is',
  )
  async pickAbWinner(@CurrentProject() projectId: string, @Param('id', CampaignId) id: string, @Body() dto: PickAbWinnerDto): Promise<CampaignResponse> {
    return toCampaignResponse(await this.campaigns.pickAbWinner(projectId, id, dto.variant));
  }

  @SecretKey()
  @Post(':id/resend-uncertain')
  @ApiOperation({ summary: "Resend a campaign's uncertain emails" })
  @ApiErrors(404, [409, 'The campaign is not SENDING or SENT'])
  @HttpCode(200)
  @ApiJson(
    200,
    ResendUncertainResponse,
    "Queues the campaign's uncertain emails (interrupted during their hand-over; they may already have arrived) to be sent again: an explicit at-least-once choice. SENDING or SENT only, else 409",
  )
  resendUncertain(@CurrentProject() projectId: string, @Param('id', CampaignId) id: string): Promise<ResendUncertainResponse> {
    return this.campaigns.resendUncertain(projectId, id);
  }

  @SecretKey()
  @Post(':id/test')
  @ApiOperation({ summary: 'Send a test copy of a campaign' })
  @ApiErrors([403, 'The sender domain is not a verified domain of the project (DOMAIN_NOT_VERIFIED)'], [404, 'No such campaign or contact in this project'], 422, 429)
  @HttpCode(200)
  @ApiJson(200, CampaignTestResponse, 'The test copy was queued')
  sendTest(@CurrentProject() projectId: string, @Param('id', CampaignId) id: string, @Body() dto: TestCampaignDto): Promise<CampaignTestResponse> {
    return this.campaigns.sendTest(projectId, id, dto.email, dto.contactId);
  }

  @SecretKey()
  @Get(':id/stats')
  @ApiOperation({ summary: 'Get the statistics of a campaign' })
  @ApiErrors(404)
  @ApiJson(200, CampaignStats, 'Current counts and rates of the fixed audience; all 0 in DRAFT and SCHEDULED')
  stats(@CurrentProject() projectId: string, @Param('id', CampaignId) id: string): Promise<CampaignStats> {
    return this.campaigns.stats(projectId, id);
  }

  @SecretKey()
  @Get(':id/audience-preview')
  @ApiOperation({ summary: 'Preview the audience of a campaign' })
  @ApiErrors([403, 'The sender domain is not a verified domain of the project (DOMAIN_NOT_VERIFIED)'], 404)
  @ApiJson(200, CampaignAudiencePreview, 'The audience as it would be fixed if sending started now, with who would be skipped (nothing is written)')
  audiencePreview(@CurrentProject() projectId: string, @Param('id', CampaignId) id: string): Promise<CampaignAudiencePreview> {
    return this.campaigns.audiencePreview(projectId, id);
  }
}
