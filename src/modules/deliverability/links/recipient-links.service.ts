import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { resolveLocale } from '../../../i18n/locales';
import { notFound } from '../../../platform/http/app-error';
import { isContactId } from '../../contacts/contact-id';
import { ContactsService } from '../../contacts/contacts.service';
import { ProjectsService } from '../../projects/projects.service';
import type { EmailType } from '../suppression/suppression.types';
import { instrumentHtml } from '../tracking/html-instrument';
import { footerHtml, footerText } from './recipient-footer';
import { PageKind, renderRecipientPage } from './recipient-pages';
import { readRecipientToken, recipientToken } from './recipient-token';

export interface RecipientLinks {
  unsubscribeUrl: string;
  subscribeUrl: string;
  manageUrl: string;
}

export interface LinkContact {
  id: string;
  data?: Record<string, unknown> | null;
}

export interface FooterProject {
  id: string;
  name: string;
  language: string;
}

/** Why a hosted page changed the subscription (the `contact.(un)subscribed` event's `reason`). */
const PAGE_REASON: Record<PageKind, string> = { unsubscribe: 'unsubscribe_link', subscribe: 'subscribe_link', manage: 'preferences_page' };

@Injectable()
export class RecipientLinksService {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly contacts: ContactsService,
    private readonly projects: ProjectsService,
  ) {}

  /** Template variables `unsubscribeUrl`, `subscribeUrl`, `manageUrl` for one contact. */
  variables(projectId: string, contact: LinkContact): RecipientLinks {
    const token = recipientToken(this.config.appSecret, projectId, contact.id);
    const base = this.config.publicUrl;
    return { unsubscribeUrl: `${base}/u/${token}`, subscribeUrl: `${base}/s/${token}`, manageUrl: `${base}/m/${token}` };
  }

  /** RFC 2369 + RFC 8058 one-click headers on MARKETING and HEADLESS mail; none on TRANSACTIONAL. */
  headers(projectId: string, contact: LinkContact, type: EmailType): Record<string, string> {
    if (type !== 'MARKETING' && type !== 'HEADLESS') return {};
    return { 'List-Unsubscribe': `<${this.variables(projectId, contact).unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
  }

  /** Appends the localized unsubscribe footer to MARKETING bodies; other types come back unchanged. */
  footer(project: FooterProject, contact: LinkContact, type: EmailType, body: { html: string; text: string }): { html: string; text: string } {
    if (type !== 'MARKETING') return body;
    const links = this.variables(project.id, contact);
    const input = { locale: resolveLocale(contact.data?.locale, project.language), projectName: project.name, ...links };
    return { html: instrumentHtml(body.html, { beforeBodyEnd: footerHtml(input) }), text: body.text + footerText(input) };
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
    if (!ids || !isContactId(ids.contactId)) throw notFound('Page');
    const contact = await this.contacts.findById(ids.projectId, ids.contactId).catch(() => null);
    if (!contact) throw notFound('Page');
    const project = await this.projects.findById(ids.projectId).catch(() => null);
    if (!project) throw notFound('Page');
    return { project, contact };
  }
}
