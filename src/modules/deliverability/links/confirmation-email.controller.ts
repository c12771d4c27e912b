import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { resolveLocale } from '../../../i18n/locales';
import { ApiErrors } from '../../../platform/http/openapi-errors';
import { ApiJson } from '../../../platform/http/openapi-responses';
import { CurrentProject, SecretKey } from '../../auth';
import { ProjectsService } from '../../projects';
import { builtInConfirmationEmail } from './confirmation-email';
import { ConfirmationEmailQuery, ConfirmationEmailResponse } from './dto/confirmation-email.dto';

/** The built-in double opt-in message as the sender gets it (docs/consent.md), for previews: the dashboard renders it like a template. */
@ApiTags('contacts')
@Controller('double-opt-in')
@SecretKey()
export class ConfirmationEmailController {
  constructor(private readonly projects: ProjectsService) {}

  @Get('built-in-email')
  @ApiOperation({ summary: 'Get the built-in confirmation email', description: 'The Liquid source of the localized message double opt-in sends when the project names no template; the variables are confirmProject, confirmEmail and confirmUrl.' })
  @ApiErrors(422)
  @ApiJson(200, ConfirmationEmailResponse, 'The message in the asked language')
  async builtIn(@CurrentProject() projectId: string, @Query() query: ConfirmationEmailQuery): Promise<ConfirmationEmailResponse> {
    const locale = query.locale ?? resolveLocale((await this.projects.findById(projectId)).language);
    return { locale, ...builtInConfirmationEmail(locale) };
  }
}
