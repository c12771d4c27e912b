import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentProject, SecretKey } from '../auth/auth.decorators';
import { CampaignsService } from './campaigns.service';
import { CampaignPage, CampaignResponse, CampaignSendResponse, CampaignStats, toCampaignResponse } from './dto/campaign.response';
import { CreateCampaignDto } from './dto/create-campaign.dto';
import { ListCampaignsQuery } from './dto/list-campaigns.query';
import { SendCampaignDto, TestCampaignDto } from './dto/send-campaign.dto';

@ApiTags('campaigns')
@Controller('campaigns')
export class CampaignsController {
  constructor(private readonly campaigns: CampaignsService) {}

  @SecretKey()
  @Get()
  list(@CurrentProject() projectId: string, @Query() query: ListCampaignsQuery): Promise<CampaignPage> {
    return this.campaigns.list(projectId, query);
  }

  @SecretKey()
  @Post()
  async create(@CurrentProject() projectId: string, @Body() dto: CreateCampaignDto): Promise<{ success: true; data: CampaignResponse }> {
    return { success: true, data: toCampaignResponse(await this.campaigns.create(projectId, dto)) };
  }

  @SecretKey()
  @Get(':id')
  async get(@CurrentProject() projectId: string, @Param('id') id: string): Promise<CampaignResponse> {
    return toCampaignResponse(await this.campaigns.findOne(projectId, id));
  }

  @SecretKey()
  @Put(':id')
  async replace(@CurrentProject() projectId: string, @Param('id') id: string, @Body() dto: CreateCampaignDto): Promise<CampaignResponse> {
    return toCampaignResponse(await this.campaigns.replace(projectId, id, dto));
  }

  @SecretKey()
  @Delete(':id')
  @HttpCode(204)
  async remove(@CurrentProject() projectId: string, @Param('id') id: string): Promise<void> {
    await this.campaigns.remove(projectId, id);
  }

  @SecretKey()
  @Post(':id/duplicate')
  async duplicate(@CurrentProject() projectId: string, @Param('id') id: string): Promise<CampaignResponse> {
    return toCampaignResponse(await this.campaigns.duplicate(projectId, id));
  }

  @SecretKey()
  @Post(':id/send')
  @HttpCode(200)
  send(@CurrentProject() projectId: string, @Param('id') id: string, @Body() dto: SendCampaignDto): Promise<CampaignSendResponse> {
    return this.campaigns.send(projectId, id, dto.scheduledFor);
  }

  @SecretKey()
  @Post(':id/cancel')
  @HttpCode(200)
  async cancel(@CurrentProject() projectId: string, @Param('id') id: string): Promise<CampaignResponse> {
    return toCampaignResponse(await this.campaigns.cancel(projectId, id));
  }

  @SecretKey()
  @Post(':id/test')
  @HttpCode(200)
  sendTest(@CurrentProject() projectId: string, @Param('id') id: string, @Body() dto: TestCampaignDto): Promise<{ success: true; emailId: string }> {
    return this.campaigns.sendTest(projectId, id, dto.email);
  }

  @SecretKey()
  @Get(':id/stats')
  stats(@CurrentProject() projectId: string, @Param('id') id: string): Promise<CampaignStats> {
    return this.campaigns.stats(projectId, id);
  }
}
