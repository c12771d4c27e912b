import type { EmailContentInput } from '../../emails';
import type { Campaign } from '../entities/campaign.entity';

/**
 * The campaign's sources as the pipeline's content row: compiled once (the renderer caches by
 * source) and rendered per contact. MARKETING mail is bulk mail (`Precedence: bulk`; the
 * pipeline adds the footer and one-click unsubscribe). A test copy is marked and prefixed by
 * `EmailPreviews.sendTest`.
 */
export function campaignContent(c: Campaign): EmailContentInput {
  const headers: Record<string, string> = {};
  if (c.type === 'MARKETING') headers.Precedence = 'bulk';
  return {
    templateId: c.templateId,
    subject: c.subject,
    body: c.body,
    fromName: c.fromName,
    replyTo: c.replyTo,
    headers,
    topicId: c.topicId,
  };
}
