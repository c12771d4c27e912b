import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { logger } from '../../../platform/logging/logger';
import { EventsService } from '../../events';
import { emailEventData, EmailStatusStore, readClickToken, readOpenToken } from '../../emails';
import { isUuid } from '../../../platform/http/parse-uuid.pipe';

const log = logger('tracking');

@Injectable()
export class TrackingService {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly store: EmailStatusStore,
    private readonly events: EventsService,
  ) {}

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
    const email = await this.store.countHitAnyProject(emailId, kind);
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
