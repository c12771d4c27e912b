import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { resolveLocale } from '../../../i18n/locales';
import { notFound } from '../../../platform/http/app-error';
import { isContactId } from '../../contacts/contact-id';
import { ContactsService } from '../../contacts/contacts.service';
import { ProjectsService } from '../../projects/projects.service';
import { PageKind, renderRecipientPage } from './recipient-pages';
import { readRecipientToken, readTopicToken } from './recipient-token';
import { TopicsService } from '../../topics/topics.service';

/** Why a hosted page changed the subscription (the `contact.(un)subscribed` event's `reason`). */
const PAGE_REASON: Record<PageKind, string> = { unsubscribe: 'unsubscribe_link', subscribe: 'subscribe_link', manage: 'preferences_page' };

@Injectable()
export class RecipientLinksService {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly contacts: ContactsService,
    private readonly projects: ProjectsService,
    private readonly topics: TopicsService,
  ) {}

  /** GET `/u/t/:token`: the page that leaves one topic (the unsubscribe page, naming the topic); never changes anything. */
  async topicPage(token: string): Promise<string> {
    const { project, contact, topic } = await this.resolveTopic(token);
    return renderRecipientPage({ kind: 'unsubscribe', locale: resolveLocale(contact.data?.locale, project.language), email: contact.email, projectName: `${project.name}: ${topic.name}`, subscribed: true });
  }

  /** POST `/u/t/:token` (the topic's RFC 8058 one-click): the contact chooses false for the topic; its other topics and its subscription stay. */
  async leaveTopic(token: string): Promise<string> {
    const { project, contact, topic } = await this.resolveTopic(token);
    await this.contacts.patch(project.id, contact.id, { topics: { [topic.slug]: false } }, { source: 'system', reason: 'topic_unsubscribe_link' });
    return renderRecipientPage({
      kind: 'unsubscribe',
      locale: resolveLocale(contact.data?.locale, project.language),
      email: contact.email,
      projectName: `${project.name}: ${topic.name}`,
      subscribed: false,
      done: true,
    });
  }

  /** A forged token, or one for a deleted contact, project or topic, is simply not found. */
  private async resolveTopic(token: string) {
    const ids = readTopicToken(this.config.appSecret, token);
    if (!ids) throw notFound('Page');
    const { project, contact } = await this.load(ids);
    const topic = await this.topics.findRule(project.id, ids.topicId).catch(() => null);
    if (!topic) throw notFound('Page');
    return { project, contact, topic };
  }

  /** GET: shows the page for a signed token; never changes anything. */
  async page(kind: PageKind, token: string): Promise<string> {
    const { project, contact } = await this.resolve(token);
    return renderRecipientPage({ kind, locale: resolveLocale(contact.data?.locale, project.language), email: contact.email, projectName: project.name, subscribed: contact.subscribed });
  }

  /** POST: applies the page's action (also the RFC 8058 one-click POST) and shows the result. */
  async act(kind: PageKind, token: string, subscribe: boolean): Promise<string> {
    const { project, contact } = await this.resolve(token);
    await this.contacts.setSubscribed(project.id, contact.id, subscribe, PAGE_REASON[kind]);
    return renderRecipientPage({
      kind,
      locale: resolveLocale(contact.data?.locale, project.language),
      email: contact.email,
      projectName: project.name,
      subscribed: subscribe,
      done: true,
    });
  }

  /** A forged token, or one for a deleted contact or project, is simply not found. */
  private async resolve(token: string) {
    const ids = readRecipientToken(this.config.appSecret, token);
    if (!ids) throw notFound('Page');
    return this.load(ids);
  }

  private async load(ids: { projectId: string; contactId: string }) {
    if (!isContactId(ids.contactId)) throw notFound('Page');
    const contact = await this.contacts.findById(ids.projectId, ids.contactId).catch(() => null);
    if (!contact) throw notFound('Page');
    const project = await this.projects.findById(ids.projectId).catch(() => null);
    if (!project) throw notFound('Page');
    return { project, contact };
  }
}
