import type { AppConfig } from '../../../config/config';
import { resolveLocale } from '../../../i18n/locales';
import type { TemplateType } from '../../templates';
import { instrumentHtml } from './html-instrument';
import { footerHtml, footerText } from './recipient-footer';
import { recipientToken, topicToken } from './recipient-token';

/**
 * A recipient's hosted links as pure functions of the configuration: the pipeline calls them
 * while it builds a message (no dependency on this module's services).
 */
export type LinksConfig = Pick<AppConfig, 'publicUrl' | 'appSecret'>;

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

/** Template variables `unsubscribeUrl`, `subscribeUrl`, `manageUrl` for one contact. */
export function recipientLinks(config: LinksConfig, projectId: string, contact: LinkContact): RecipientLinks {
  const token = recipientToken(config.appSecret, projectId, contact.id);
  const base = config.publicUrl;
  return { unsubscribeUrl: `${base}/u/${token}`, subscribeUrl: `${base}/s/${token}`, manageUrl: `${base}/m/${token}` };
}

/** The link that leaves one topic (`/u/t/<token>`): GET shows, POST (also RFC 8058 one-click) leaves. */
export function topicUnsubscribeUrl(config: LinksConfig, projectId: string, contactId: string, topicId: string): string {
  return `${config.publicUrl}/u/t/${topicToken(config.appSecret, projectId, contactId, topicId)}`;
}

/**
 * RFC 2369 + RFC 8058 one-click headers on MARKETING and HEADLESS mail; none on TRANSACTIONAL.
 * MARKETING mail of a topic (a campaign's `topicId`) names the topic's link: one click leaves the
 * topic, not everything.
 */
export function listUnsubscribeHeaders(config: LinksConfig, projectId: string, contact: LinkContact, type: TemplateType, topicId?: string | null): Record<string, string> {
  if (type !== 'MARKETING' && type !== 'HEADLESS') return {};
  const url = type === 'MARKETING' && topicId ? topicUnsubscribeUrl(config, projectId, contact.id, topicId) : recipientLinks(config, projectId, contact).unsubscribeUrl;
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

/** Appends the localized unsubscribe footer to MARKETING bodies; other types come back unchanged. */
export function withRecipientFooter(
  config: LinksConfig,
  project: FooterProject,
  contact: LinkContact,
  type: TemplateType,
  body: { html: string; text: string },
): { html: string; text: string } {
  if (type !== 'MARKETING') return body;
  const links = recipientLinks(config, project.id, contact);
  const input = { locale: resolveLocale(contact.data?.locale, project.language), projectName: project.name, ...links };
  return { html: instrumentHtml(body.html, { beforeBodyEnd: footerHtml(input) }), text: body.text + footerText(input) };
}
