import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../../platform/http/openapi-errors';
import { ApiJson } from '../../../platform/http/openapi-responses';
import { CurrentProject, SecretKey } from '../../auth';
import type { Template } from '../../templates';
import { TemplatesService, templateNotFound } from '../../templates';
import { EmailPreviews, PreviewSource } from '../use-cases/email-previews';
import { PreviewAsContactDto, PreviewResponse, TestSendDto, TestSendResponse } from './previews.dto';
import { ParseUuidPipe } from '../../../platform/http/parse-uuid.pipe';

const TemplateId = new ParseUuidPipe(templateNotFound);

/** A saved template as the pipeline's content (the sources `/v1/send` with `templateId` would write). */
export const templateSource = (t: Template): PreviewSource => ({
  type: t.type,
  fromAddress: t.fromAddress,
  content: { templateId: t.id, subject: t.subject, body: t.body, fromName: t.fromName, replyTo: t.replyTo, headers: {} },
});

/** Template previews and test copies as a contact (routes of the templates resource, served by the emails module that renders and sends). */
@ApiTags('previews')
@Controller('templates')
export class TemplatePreviewsController {
  constructor(
    private readonly templates: TemplatesService,
    private readonly previews: EmailPreviews,
  ) {}

  @SecretKey()
  @Post(':id/preview')
  @ApiOperation({ summary: 'Preview a template as a contact' })
  @ApiErrors([404, 'No such template or contact in this project'], 422)
  @HttpCode(200)
  @ApiJson(200, PreviewResponse, 'The saved template rendered with the contact, as the pipeline renders it (footer and headers included, untracked); nothing is written')
  async preview(@CurrentProject() projectId: string, @Param('id', TemplateId) id: string, @Body() dto: PreviewAsContactDto): Promise<PreviewResponse> {
    return this.previews.preview(projectId, templateSource(await this.templates.findOne(projectId, id)), dto.contactId);
  }

  @SecretKey()
  @Post(':id/test')
  @ApiOperation({ summary: 'Send a test copy of a template as a contact' })
  @ApiErrors([403, 'The sender domain is not a verified domain of the project (DOMAIN_NOT_VERIFIED)'], [404, 'No such template or contact in this project'], 422, 429)
  @HttpCode(200)
  @ApiJson(200, TestSendResponse, 'The test copy was queued')
  async sendTest(@CurrentProject() projectId: string, @Param('id', TemplateId) id: string, @Body() dto: TestSendDto): Promise<TestSendResponse> {
    return this.previews.sendTest(projectId, templateSource(await this.templates.findOne(projectId, id)), dto.email, dto.contactId);
  }
}
