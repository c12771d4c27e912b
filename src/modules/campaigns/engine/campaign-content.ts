import type { NewEmailContent } from '../../emails/use-cases/email-writer';
import type { Campaign } from '../entities/campaign.entity';

/**
 * The campaign's sources as the pipeline's content row: compiled once (the renderer caches by
 * source) and rendered per contact. MARKETING mail is bulk mail (`Precedence: bulk`; the
 * pipeline adds the footer and one-click unsubscribe). A test copy is marked and prefixed.
 */
export function campaignContent(c: Campaign, opts: { test: boolean }): NewEmailContent {
  const headers: Record<string, string> = {};
  if (c.type === 'MARKETING') headers.Precedence = 'bulk';
  if (opts.test) headers['X-Test'] = 'true';
  return {
    projectId: c.projectId,
    templateId: c.templateId,
    subject: opts.test ? `[Test] ${c.subject}` : c.subject,
    body: c.body,
    fromName: c.fromName,
    replyTo: c.replyTo,
    headers,
  };
}
