import { Body, Controller, Get, Header, HttpCode, Param, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../../auth/auth.decorators';
import { ManagePreferencesDto } from './dto/manage-preferences.dto';
import { RecipientLinksService } from './recipient-links.service';

const PAGE_HEADERS: Array<[string, string]> = [
  ['Content-Type', 'text/html; charset=utf-8'],
  ['Cache-Control', 'no-store'],
  ['X-Robots-Tag', 'noindex'],
  ['Referrer-Policy', 'no-referrer'],
  ['Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'"],
];

/**
 * Hosted pages behind the signed recipient links. GET only shows; POST changes. `POST /u/:token`
 * is also the RFC 8058 one-click endpoint named in `List-Unsubscribe`.
 */
@ApiExcludeController()
@Controller()
export class RecipientLinksController {
  constructor(private readonly links: RecipientLinksService) {}

  @Public()
  @Get('u/:token')
  @PageHeaders()
  showUnsubscribe(@Param('token') token: string): Promise<string> {
    return this.links.page('unsubscribe', token);
  }

  @Public()
  @Post('u/:token')
  @HttpCode(200)
  @PageHeaders()
  unsubscribe(@Param('token') token: string): Promise<string> {
    return this.links.act('unsubscribe', token, false);
  }

  @Public()
  @Get('s/:token')
  @PageHeaders()
  showSubscribe(@Param('token') token: string): Promise<string> {
    return this.links.page('subscribe', token);
  }

  @Public()
  @Post('s/:token')
  @HttpCode(200)
  @PageHeaders()
  subscribe(@Param('token') token: string): Promise<string> {
    return this.links.act('subscribe', token, true);
  }

  @Public()
  @Get('u/t/:token')
  @PageHeaders()
  showLeaveTopic(@Param('token') token: string): Promise<string> {
    return this.links.topicPage(token);
  }

  /** The one-click POST named in `List-Unsubscribe` of a topic's MARKETING mail: leaves that topic only. */
  @Public()
  @Post('u/t/:token')
  @HttpCode(200)
  @PageHeaders()
  leaveTopic(@Param('token') token: string): Promise<string> {
    return this.links.leaveTopic(token);
  }

  @Public()
  @Get('m/:token')
  @PageHeaders()
  showManage(@Param('token') token: string): Promise<string> {
    return this.links.page('manage', token);
  }

  @Public()
  @Post('m/:token')
  @HttpCode(200)
  @PageHeaders()
  manage(@Param('token') token: string, @Body() dto: ManagePreferencesDto): Promise<string> {
    return this.links.act('manage', token, dto.action === 'subscribe');
  }
}

function PageHeaders(): MethodDecorator {
  return (target, key, descriptor) => {
    for (const [name, value] of PAGE_HEADERS) Header(name, value)(target, key, descriptor);
  };
}
