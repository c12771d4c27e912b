import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { resolveLocale } from '../../../i18n/locales';
import { ContactsService } from '../../contacts';
import { isContactId } from '../../events';
import type { Contact } from '../../contacts';
import type { Project } from '../../projects';
import { ProjectsService } from '../../projects';
import { isTopicMember, TopicsService } from '../../topics';
import type { ManagePreferencesDto } from './dto/manage-preferences.dto';
import { PageAnswer, PageKind, PreferencesModel, renderRecipientPage, snoozeEnd, SnoozeChoice } from './recipient-pages';
import { readRecipientToken, readTopicToken } from '../../emails';

type LinkPage = Exclude<PageKind, 'confirm' | 'invalid'>;

/** Why a hosted page changed the subscription (the `contact.(un)subscribed` event's `reason`). */
const PAGE_REASON: Record<LinkPage, string> = { unsubscribe: 'unsubscribe_link', subscribe: 'subscribe_link', manage: 'preferences_page' };

/** The friendly page of a forged, expired or stale link (404, or 410 for an expired one); nothing changes behind it. */
export type InvalidPage = { status: number; html: string };

export function invalidLinkPage(status: number, language?: string): InvalidPage {
  return { status, html: renderRecipientPage({ kind: 'invalid', locale: resolveLocale(language), email: '', projectName: 'Mailroom', subscribed: false }) };
}

@Injectable()
export class RecipientLinksService {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly contacts: ContactsService,
    private readonly projects: ProjectsService,
    private readonly topics: TopicsService,
  ) {}

  /** GET: shows the page for a signed token; never changes anything. */
  async page(kind: LinkPage, token: string): Promise<PageAnswer> {
    const resolved = await this.resolve(token);
    if ('status' in resolved) return resolved;
    return this.render(kind, resolved.project, resolved.contact, false);
  }

  /**
   * POST: applies the page's action (also the RFC 8058 one-click POST) and shows the result. The
   * preference centre's `save` writes topic choices and the snooze through `ContactsService.patch`,
   * which stores the same events as the API (`contact.topic.*`, `contact.snoozed`).
   */
  async act(kind: LinkPage, token: string, form?: ManagePreferencesDto): Promise<PageAnswer> {
    const resolved = await this.resolve(token);
    if ('status' in resolved) return resolved;
    const { project } = resolved;
    let contact = resolved.contact;
    const action = kind === 'manage' ? form!.action : kind;
    if (action === 'save') contact = await this.savePreferences(project, contact, form!);
    else {
      await this.contacts.setSubscribed(project.id, contact.id, action === 'subscribe', PAGE_REASON[kind]);
      contact = (await this.contacts.findById(project.id, contact.id)) ?? contact;
    }
    return this.render(kind, project, contact, true);
  }

  /** GET `/u/t/:token`: the page that leaves one topic (the unsubscribe page, naming the topic); never changes anything. */
  async topicPage(token: string): Promise<PageAnswer> {
    const resolved = await this.resolveTopic(token);
    if ('status' in resolved) return resolved;
    return this.renderTopicPage(resolved, false);
  }

  /** POST `/u/t/:token` (the topic's RFC 8058 one-click): the contact chooses false for the topic; its other topics and its subscription stay. */
  async leaveTopic(token: string): Promise<PageAnswer> {
    const resolved = await this.resolveTopic(token);
    if ('status' in resolved) return resolved;
    const { project, contact, topic } = resolved;
    await this.contacts.patch(project.id, contact.id, { topics: { [topic.slug]: false } }, { source: 'system', reason: 'topic_unsubscribe_link' });
    return this.renderTopicPage(resolved, true);
  }

  private renderTopicPage({ project, contact, topic }: { project: Project; contact: Contact; topic: { name: string } }, done: boolean): PageAnswer {
    const html = renderRecipientPage({
      kind: 'unsubscribe',
      locale: resolveLocale(contact.data?.locale, project.language),
      email: contact.email,
      projectName: `${project.name}: ${topic.name}`,
      subscribed: !done,
      done,
    });
    return { status: 200, html };
  }

  /** Topic toggles (only the project's public topics; unchecked ones are left) and the snooze, as one patch. */
  private async savePreferences(project: Project, contact: Contact, form: ManagePreferencesDto): Promise<Contact> {
    const checked = new Set(form.topics ?? []);
    const changes: Record<string, boolean> = {};
    for (const topic of await this.publicTopics(project.id)) {
      const wanted = checked.has(topic.slug);
      if (isTopicMember(contact.topics, topic) !== wanted) changes[topic.slug] = wanted;
    }
    const snooze = form.snooze;
    const snoozedUntil = snooze === 'none' ? (contact.snoozedUntil ? null : undefined) : snooze ? snoozeEnd(snooze as SnoozeChoice, new Date()) : undefined;
    if (Object.keys(changes).length === 0 && snoozedUntil === undefined) return contact;
    return this.contacts.patch(
      project.id,
      contact.id,
      { ...(Object.keys(changes).length ? { topics: changes } : {}), ...(snoozedUntil !== undefined ? { snoozedUntil } : {}) },
      { source: 'system', reason: PAGE_REASON.manage },
    );
  }

  private async publicTopics(projectId: string) {
    return (await this.topics.list(projectId)).filter((t) => t.public);
  }

  private async render(kind: LinkPage, project: Project, contact: Contact, done: boolean): Promise<PageAnswer> {
    let preferences: PreferencesModel | undefined;
    if (kind === 'manage') {
      const topics = (await this.publicTopics(project.id)).map((t) => ({ slug: t.slug, name: t.name, description: t.description, member: isTopicMember(contact.topics, t) }));
      preferences = { topics, snoozedUntil: contact.snoozedUntil ?? null };
    }
    const html = renderRecipientPage({
      kind,
      locale: resolveLocale(contact.data?.locale, project.language),
      email: contact.email,
      projectName: project.name,
      subscribed: contact.subscribed,
      done,
      preferences,
    });
    return { status: 200, html };
  }

  /** A forged token, or one for a deleted contact or project: the friendly page (404). */
  private async resolve(token: string): Promise<{ project: Project; contact: Contact } | InvalidPage> {
    const ids = readRecipientToken(this.config.appSecret, token);
    return ids ? this.load(ids) : invalidLinkPage(404);
  }

  /** A topic link's contact and topic; a forged token, or one for a deleted contact, project or topic: the friendly page. */
  private async resolveTopic(token: string): Promise<{ project: Project; contact: Contact; topic: { slug: string; name: string } } | InvalidPage> {
    const ids = readTopicToken(this.config.appSecret, token);
    if (!ids) return invalidLinkPage(404);
    const loaded = await this.load(ids);
    if ('status' in loaded) return loaded;
    const topic = await this.topics.findRule(loaded.project.id, ids.topicId).catch(() => null);
    return topic ? { ...loaded, topic } : invalidLinkPage(404, loaded.project.language);
  }

  private async load(ids: { projectId: string; contactId: string }): Promise<{ project: Project; contact: Contact } | InvalidPage> {
    if (!isContactId(ids.contactId)) return invalidLinkPage(404);
    const project = await this.projects.findById(ids.projectId).catch(() => null);
    const contact = project ? await this.contacts.findById(project.id, ids.contactId) : null;
    if (!project || !contact) return invalidLinkPage(404, project?.language);
    return { project, contact };
  }
}
