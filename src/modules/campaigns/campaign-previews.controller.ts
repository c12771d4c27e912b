import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../platform/http/openapi-errors';
import { ApiJson } from '../../platform/http/openapi-responses';
import { CurrentProject, SecretKey } from '../auth';
import { PreviewAsContactDto, PreviewResponse } from '../emails';
import { CampaignsService } from './campaigns.service';
import { ParseUuidPipe } from '../../platform/http/parse-uuid.pipe';
import { campaignNotFound } from './campaigns.errors';

const CampaignId = new ParseUuidPipe(campaignNotFound);

/** A campaign rendered as a contact (any status: the composer's draft and a sent campaign's page alike). */
@ApiTags('previews')
@Controller('campaigns')
export class CampaignPreviewsController {
  constructor(private readonly campaigns: CampaignsService) {}

  @SecretKey()
  @Post(':id/preview')
  @ApiOperation({ summary: 'Preview a campaign as a contact' })
  @ApiErrors([404, 'No such campaign or contact in this project'], 422)
  @HttpCode(200)
  @ApiJson(200, PreviewResponse, 'The campaign rendered with the contact, as the pipeline renders it (footer and headers included, untracked); nothing is written')
  preview(@CurrentProject() projectId: string, @Param('id', CampaignId) id: string, @Body() dto: PreviewAsContactDto): Promise<PreviewResponse> {
    return this.campaigns.preview(projectId, id, dto.contactId);
  }
}
