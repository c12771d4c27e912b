import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { logger } from '../../../platform/logging/logger';
import { EventsService } from '../../events/events.service';
import { emailEventData, EmailEventRow, EMAIL_EVENT_COLUMNS } from '../../emails/email-event-data';
import { instrumentHtml, isTrackableUrl } from './html-instrument';
import { clickPath, openPixelPath, OWN_PATH_PREFIXES, readClickToken, readOpenToken } from './tracking-links';
import { isUuid } from '../../../platform/http/parse-uuid.pipe';

const log = logger('tracking');

export interface InstrumentOptions {
  emailId: string;
  projectId: string;
  opens: boolean;
  clicks: boolean;
}

@Injectable()
export class TrackingService {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: EventsService,
  ) {}

  /** Wraps http(s) links in signed click redirects and appends the open pixel, as asked. */
  instrument(html: string, options: InstrumentOptions): string {
    if (!options.opens && !options.clicks) return html;
    const base = this.config.publicUrl;
    const secret = this.config.appSecret;
    const isOwnLink = (href: string) => OWN_PATH_PREFIXES.some((prefix) => href.startsWith(base + prefix));
    return instrumentHtml(html, {
      rewriteLink: options.clicks ? (href) => (isTrackableUrl(href) && !isOwnLink(href) ? base + clickPath(secret, options.emailId, href) : null) : undefined,
      beforeBodyEnd: options.opens
        ? `<img src="${base}${openPixelPath(secret, options.emailId)}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0" />`
        : undefined,
    });
  }

  /**
   * Verifies a pixel file name and counts the open; false for anything forged. `count: false`
   * (HEAD requests of link scanners) answers without counting.
   */
  async open(file: string, count = true): Promise<boolean> {
    const token = readOpenToken(this.config.appSecret, file);
    if (!token) return false;
    if (count) await this.safely(() => this.record(token.emailId, 'open'));
    return true;
  }

  /** The target of a signed click link (after counting the click), or null for anything forged. */
  async click(tokenText: string, count = true): Promise<string | null> {
    const token = readClickToken(this.config.appSecret, tokenText);
    if (!token) return null;
    if (count) await this.safely(() => this.record(token.emailId, 'click', token.url));
    return token.url;
  }

  /** First open/click sets the timestamp; counters and events count every one. */
  private async record(emailId: string, kind: 'open' | 'click', link?: string): Promise<void> {
    if (!isUuid(emailId)) return;
    const sql =
      kind === 'open'
        ? `UPDATE emails SET open_count = open_count + 1, opened_at = COALESCE(opened_at, now()) WHERE id = $1 AND project_id IS NOT NULL RETURNING ${EMAIL_EVENT_COLUMNS}`
        : `UPDATE emails SET click_count = click_count + 1, clicked_at = COALESCE(clicked_at, now()) WHERE id = $1 AND project_id IS NOT NULL RETURNING ${EMAIL_EVENT_COLUMNS}`;
    const [rows] = (await this.dataSource.query(sql, [emailId])) as [EmailEventRow[], number];
    const email = rows[0];
    if (!email) return;
    await this.events.record(email.project_id, {
      contactId: email.contact_id,
      name: kind === 'open' ? 'email.open' : 'email.click',
      data: kind === 'open' ? emailEventData(email) : { ...emailEventData(email), link },
    });
  }

  /** A recipient's pixel or redirect must work even when bookkeeping fails. */
  private async safely(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      log.error({ err: error }, 'recording a tracking hit failed');
    }
  }
}
