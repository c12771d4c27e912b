import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiCursorPage, ApiJson } from '../../platform/http/openapi-responses';
import type { CursorPage } from '../../platform/http/pagination';
import { ParseUuidPipe } from '../../platform/http/parse-uuid.pipe';
import { CurrentProject, SecretKey } from '../auth';
import { EmailDetailResponse, EmailResponse } from './dto/email.response';
import { ListEmailsQuery } from './dto/list-emails.query';
import { EmailsQueriesService } from './emails-queries.service';
import { emailNotFound } from './emails.errors';
import { ApiErrors } from '../../platform/http/openapi-errors';

@ApiTags('emails')
@Controller('v1/emails')
@SecretKey()
export class EmailsQueriesController {
  constructor(private readonly emails: EmailsQueriesService) {}

  @Get()
  @ApiOperation({ summary: 'List emails' })
  @ApiErrors(422)
  @ApiCursorPage(EmailResponse, "The project's emails, newest first")
  list(@CurrentProject() projectId: string, @Query() query: ListEmailsQuery): Promise<CursorPage<EmailResponse>> {
    return this.emails.list(projectId, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get an email with its events' })
  @ApiErrors(404)
  @ApiJson(200, EmailDetailResponse, 'The email with its events; another project\'s email is a 404')
  findOne(@CurrentProject() projectId: string, @Param('id', new ParseUuidPipe(emailNotFound)) id: string): Promise<EmailDetailResponse> {
    return this.emails.findOne(projectId, id);
  }
}
