import { Body, Controller, Get, Param, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../../auth';
import { ManagePreferencesDto } from './dto/manage-preferences.dto';
import { RecipientLinksService } from './recipient-links.service';
import { ConfirmationService } from './confirmation.service';
import type { PageAnswer } from './recipient-pages';

const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'";

const PAGE_HEADERS: Array<[string, string]> = [
  ['Content-Type', 'text/html; charset=utf-8'],
  ['Cache-Control', 'no-store'],
  ['X-Robots-Tag', 'noindex'],
  ['Referrer-Policy', 'no-referrer'],
  ['Content-Security-Policy', PAGE_CSP],
];

/**
 * Hosted pages behind the signed recipient links. GET only shows; POST changes. `POST /u/:token`
 * is also the RFC 8058 one-click endpoint named in `List-Unsubscribe`.
 */
@ApiExcludeController()
@Controller()
export class RecipientLinksController {
  constructor(
    private readonly links: RecipientLinksService,
    private readonly confirmation: ConfirmationService,
  ) {}

  /** Double opt-in: GET shows the confirm button (link scanners confirm nothing). */
  @Public()
  @Get('c/:token')
  async showConfirm(@Param('token') token: string, @Res() res: Response): Promise<void> {
    answer(res, await this.confirmation.page(token));
  }

  /** Double opt-in: POST confirms, then redirects to the project's `redirectUrl` when it has one (303). */
  @Public()
  @Post('c/:token')
  async confirm(@Param('token') token: string, @Res() res: Response): Promise<void> {
    answer(res, await this.confirmation.act(token));
  }

  @Public()
  @Get('u/:token')
  async showUnsubscribe(@Param('token') token: string, @Res() res: Response): Promise<void> {
    answer(res, await this.links.page('unsubscribe', token));
  }

  @Public()
  @Post('u/:token')
  async unsubscribe(@Param('token') token: string, @Res() res: Response): Promise<void> {
    answer(res, await this.links.act('unsubscribe', token));
  }

  @Public()
  @Get('s/:token')
  async showSubscribe(@Param('token') token: string, @Res() res: Response): Promise<void> {
    answer(res, await this.links.page('subscribe', token));
  }

  @Public()
  @Post('s/:token')
  async subscribe(@Param('token') token: string, @Res() res: Response): Promise<void> {
    answer(res, await this.links.act('subscribe', token));
  }

  @Public()
  @Get('u/t/:token')
  async showLeaveTopic(@Param('token') token: string, @Res() res: Response): Promise<void> {
    answer(res, await this.links.topicPage(token));
  }

  /** The one-click POST named in `List-Unsubscribe` of a topic's MARKETING mail: leaves that topic only. */
  @Public()
  @Post('u/t/:token')
  async leaveTopic(@Param('token') token: string, @Res() res: Response): Promise<void> {
    answer(res, await this.links.leaveTopic(token));
  }

  /** The preference centre: the contact's public topics, snooze, unsubscribe from everything. */
  @Public()
  @Get('m/:token')
  async showManage(@Param('token') token: string, @Res() res: Response): Promise<void> {
    answer(res, await this.links.page('manage', token));
  }

  @Public()
  @Post('m/:token')
  async manage(@Param('token') token: string, @Body() dto: ManagePreferencesDto, @Res() res: Response): Promise<void> {
    answer(res, await this.links.act('manage', token, dto));
  }
}

/** A hosted link's answer with the pages' headers (the handler writes the response itself: the status varies, and confirmation may redirect). */
function answer(res: Response, result: PageAnswer): void {
  for (const [name, value] of PAGE_HEADERS) if (name !== 'Content-Type' || !('redirect' in result)) res.setHeader(name, value);
  if ('formRedirect' in result && result.formRedirect) {
    res.setHeader('Content-Security-Policy', PAGE_CSP.replace("form-action 'self'", `form-action 'self' ${new URL(result.formRedirect).origin}`));
  }
  if ('redirect' in result) res.redirect(303, result.redirect);
  else res.status(result.status).send(result.html);
}
