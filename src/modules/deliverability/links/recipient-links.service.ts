import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { resolveLocale } from '../../../i18n/locales';
import { notFound } from '../../../platform/http/app-error';
import { isContactId } from '../../contacts/contact-id';
import { ContactsService } from '../../contacts/contacts.service';
import { ProjectsService } from '../../projects/projects.service';
import { PageKind, renderRecipientPage } from './recipient-pages';
import { readRecipientToken } from './recipient-token';

/** Why a hosted page changed the subscription (the `contact.(un)subscribed` event's `reason`). */
type LinkPage = Exclude<PageKind, 'confirm' | 'invalid'>;
const PAGE_REASON: Record<LinkPage, string> = { unsubscribe: 'unsubscribe_link', subscribe: 'subscribe_link', manage: 'preferences_page' };

@Injectable()
export class RecipientLinksService {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly contacts: ContactsService,
    private readonly projects: ProjectsService,
  ) {}

  /** GET: shows the page for a signed token; never changes anything. */
  async page(kind: LinkPage, token: string): Promise<string> {
    const { project, contact } = await this.resolve(token);
    return renderRecipientPage({ kind, locale: resolveLocale(contact.data?.locale, project.language), email: contact.email, projectName: project.name, subscribed: contact.subscribed });
  }

  /** POST: applies the page's action (also the RFC 8058 one-click POST) and shows the result. */
  async act(kind: LinkPage, token: string, subscribe: boolean): Promise<string> {
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
    if (!ids || !isContactId(ids.contactId)) throw notFound('Page');
    const contact = await this.contacts.findById(ids.projectId, ids.contactId).catch(() => null);
    if (!contact) throw notFound('Page');
    const project = await this.projects.findById(ids.projectId).catch(() => null);
    if (!project) throw notFound('Page');
    return { project, contact };
  }
}
