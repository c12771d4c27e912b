import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { validationError } from '../../../platform/http/app-error';
import { CounterStore } from '../../../platform/http/rate-limit/counter-store';
import { rateLimitExceeded } from '../../../platform/http/rate-limit/rate-limit.errors';
import { DomainsService } from '../../domains';
import { ContactsService } from '../../contacts';
import type { EmailType } from '../entities/email.entity';
import { EmailContentInput, EmailQueueFacade } from '../email-queue.facade';
import { MessageBuilder } from '../engine/message-builder';
import { ProjectCache } from '../engine/project-cache';
import { TEST_HEADER, TEST_SUBJECT_PREFIX } from '../test-copy';

/** Test sends per project and minute (a person clicking "send test", not a sending path). */
export const TEST_SENDS_PER_MINUTE = 20;

/** What a preview or a test copy is made of: a template's or a campaign's sources. */
export interface PreviewSource {
  type: EmailType;
  fromAddress: string;
  content: EmailContentInput;
}

export interface RenderedPreview {
  subject: string;
  html: string;
  text: string;
  headers: Record<string, string>;
}

/**
 * Previews and test copies "as a contact", for templates and campaigns alike. A preview goes
 * through the pipeline's own render (`MessageBuilder.render`: variables, Liquid, footer, headers),
 * untracked, nothing written. A test copy goes through the one door (`EmailQueueFacade`) as a
 * test copy (test-copy.ts): no contact, so no event, statistic or usage.
 */
@Injectable()
export class EmailPreviews {
  constructor(
    private readonly builder: MessageBuilder,
    private readonly projects: ProjectCache,
    private readonly contacts: ContactsService,
    private readonly facade: EmailQueueFacade,
    private readonly counters: CounterStore,
    private readonly domains: DomainsService,
  ) {}

  async preview(projectId: string, source: PreviewSource, contactId: string): Promise<RenderedPreview> {
    const contact = await this.contacts.getById(projectId, contactId);
    const project = await this.projects.get(projectId);
    const content = source.content;
    const rendered = await this.builder.render(project, {
      id: randomUUID(),
      projectId,
      contactId: contact.id,
      type: source.type,
      toAddress: contact.email,
      variables: contact.data ?? {},
      trackOpens: false,
      trackClicks: false,
      content: { subject: content.subject, body: content.body, liquid: true, markdown: content.markdown ?? false, text: content.text ?? null, replyTo: content.replyTo, headers: content.headers ?? {} },
    });
    delete rendered.headers['X-Mailroom-Email-Id'];
    return rendered;
  }

  /**
   * One test copy to `to`, rendered as the contact (`contactId`; omitted: no contact data). Its type
   * is the source's (a MARKETING copy has its footer), so a suppressed address is refused (422 `email`).
   */
  async sendTest(projectId: string, source: PreviewSource, to: string, contactId?: string | null): Promise<{ success: true; emailId: string }> {
    const contact = contactId ? await this.contacts.getById(projectId, contactId) : null;
    await this.domains.assertSenderAllowed(projectId, source.fromAddress);
    const { count, resetMs } = await this.counters.hit(`test-send:${projectId}`, 60_000);
    if (count > TEST_SENDS_PER_MINUTE) {
      throw rateLimitExceeded({ 'Retry-After': String(Math.max(1, Math.ceil(resetMs / 1000))) }, `At most ${TEST_SENDS_PER_MINUTE} test sends per minute`);
    }
    const content: EmailContentInput = {
      ...source.content,
      subject: `${TEST_SUBJECT_PREFIX}${source.content.subject}`,
      headers: { ...source.content.headers, [TEST_HEADER]: 'true' },
    };
    const variables = contact ? { ...contact.data, id: contact.id, email: contact.email } : {};
    const [outcome] = await this.facade.queueForRecipients(projectId, { type: source.type, fromAddress: source.fromAddress, tracking: false, content }, [
      { contactId: null, email: to.trim().toLowerCase(), name: null, subscribed: true, variables },
    ]);
    if ('skipped' in outcome) throw validationError([{ field: 'email', code: 'invalid', message: `email cannot be sent to (${outcome.skipped})` }]);
    return { success: true, emailId: outcome.emailId };
  }
}
