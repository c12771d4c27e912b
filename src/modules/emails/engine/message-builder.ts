import { LRUCache } from 'lru-cache';
import { Injectable } from '@nestjs/common';
import { ContactsService } from '../../contacts';
import { DomainsService } from '../../domains';
import { RenderPool } from '../../templates';
import type { ComposeInput, DkimKey } from './compose-mime';
import { domainOf } from './compose-mime';
import type { LoadedEmail } from '../email-status.rows';
import { ProjectCache } from './project-cache';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { listUnsubscribeHeaders, recipientLinks, withRecipientFooter } from '../marks/recipient-links';
import { instrumentTracking } from '../marks/instrument-tracking';
import { skipReason } from '../recipient-policy';
import { isTestCopy, TEST_COPY_LINK_ID, testCopyContact } from '../test-copy';
import type { Project } from '../../projects';

type RenderProject = Project;
/** What a render needs of an email (a loaded row, or a preview's stand-in). */
export type RenderInput = Pick<LoadedEmail, 'id' | 'projectId' | 'contactId' | 'type' | 'toAddress' | 'variables' | 'trackOpens' | 'trackClicks'> & {
  content: Pick<NonNullable<LoadedEmail['content']>, 'subject' | 'body' | 'liquid' | 'markdown' | 'text' | 'replyTo' | 'headers'> & { topicId?: string | null };
};

export type BuildResult = { kind: 'skip'; reason: string } | { kind: 'message'; message: ComposeInput };

/** Thrown for an email that can never be built (e.g. its content is gone); not retried. */
export class UnbuildableEmailError extends Error {}

const DKIM_CACHE_MS = 60_000;

/**
 * The render/build step of the pipeline, as a fixed sequence of small steps. Deliverability
 * hooks in here with one line each (suppression check, link variables, tracking, list headers):
 *   1. skip check       2. variables       3. render       4. instrument HTML
 *   5. headers          6. attachments     7. DKIM key
 */
@Injectable()
export class MessageBuilder {
  private readonly dkimCache = new LRUCache<string, { key: DkimKey | null }>({ max: 10_000, ttl: DKIM_CACHE_MS });

  constructor(
    private readonly renderer: RenderPool,
    private readonly contacts: ContactsService,
    private readonly domains: DomainsService,
    private readonly projects: ProjectCache,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async build(email: LoadedEmail, opts: { ownDkim: boolean }): Promise<BuildResult> {
    const content = email.content;
    if (!content) throw new UnbuildableEmailError('the content of this email no longer exists');
    const project = email.projectId ? await this.projects.get(email.projectId) : null;

    // 1. Skip checks: a suspended project sends nothing more, even mail queued before the
    //    suspension; then the recipient policy (recipient-policy.ts), as when the email was written.
    if (project?.disabled) return { kind: 'skip', reason: 'project_disabled' };
    //    (The address's state was read with the email, in the load's one statement.)
    //    Topic choices and snoozes made while the email waited count as much as suppression and unsubscription.
    const skip = project ? skipReason(email.type, email.recipient) : null;
    if (skip) return { kind: 'skip', reason: skip };

    // 2.–5. Variables, render, footer and tracking, headers: the steps a preview shares (`render`).
    const variables = content.liquid ? (email.variables ?? (await this.contactData(email))) : {};
    const rendered = await this.render(project, { ...email, content, variables });
    // The SMTP relay keeps the client's To (every addressee, not just this copy's) and Message-ID.
    const headers = { ...rendered.headers };
    const toHeader = takeHeader(headers, 'to');
    const messageIdHeader = takeHeader(headers, 'message-id');

    // 6. Attachments, decoded from the stored base64.
    const attachments = content.attachments.map((a) => ({ ...a, content: Buffer.from(a.content, 'base64') }));

    // 7. Our DKIM signature (smtp, outbox) with the project's verified domain key.
    const dkim = opts.ownDkim && email.projectId ? await this.dkimKey(email.projectId, email.fromAddress) : null;

    return {
      kind: 'message',
      message: {
        messageId: messageIdHeader ?? `<${email.id}@${domainOf(email.fromAddress)}>`,
        from: { email: email.fromAddress, name: content.fromName },
        to: { email: email.toAddress, name: email.toName },
        toHeader,
        subject: rendered.subject,
        html: rendered.html,
        text: rendered.text,
        headers,
        attachments,
        dkim,
      },
    };
  }

  /**
   * Steps 2–5 for one recipient: the generated variables, the render, the unsubscribe footer and
   * tracking, our headers. A send (`build`) and a preview (`EmailPreviews`, with `trackOpens` and
   * `trackClicks` off) both come here, so a preview is what the recipient gets.
   */
  async render(project: RenderProject | null, email: RenderInput): Promise<{ subject: string; html: string; text: string; headers: Record<string, string> }> {
    const content = email.content;
    // 2. Variables: the contact's data (snapshot taken at send time) plus the generated ones. A test
    //    copy renders as the contact it names (test-copy.ts), not as its test address.
    const as = isTestCopy(email) ? testCopyContact(email.variables) : email.contactId ? { id: email.contactId, email: email.toAddress } : null;
    // The recipient links are the contact's, except in a test copy, whose links act on no one (test-copy.ts).
    const linked = as && isTestCopy(email) ? { id: TEST_COPY_LINK_ID } : as;
    let variables: Record<string, unknown> = {};
    if (content.liquid) {
      variables = email.variables ?? {};
      variables = {
        ...variables,
        email: as?.email ?? email.toAddress,
        id: as?.id ?? email.contactId,
        ...(project && linked ? recipientLinks(this.config, project.id, { id: linked.id }) : {}),
        locale: typeof variables.locale === 'string' && variables.locale ? variables.locale : (project?.language ?? 'en'),
      };
    }

    // 3. Render subject and HTML (account mail arrives final; a markdown body is converted once rendered), then the plain-text part:
    //    one job in the renderer process, off this event loop and bounded (docs/rendering.md); a template that fails throws RenderFailedError.
    const rendered = await this.renderer.renderEmail(email.projectId, { subject: content.subject, body: content.body, liquid: content.liquid, markdown: content.markdown, text: content.text, variables });
    let { html, text } = rendered;

    // 4. The unsubscribe footer (MARKETING), then the open pixel and click redirects when tracking is on.
    if (project && linked) ({ html, text } = withRecipientFooter(this.config, project, { id: linked.id, data: variables }, email.type, { html, text }));
    // A message without HTML (a plain-text SMTP submission) stays without: no pixel, no HTML part.
    if (project && html) html = instrumentTracking(this.config, html, { emailId: email.id, projectId: project.id, opens: email.trackOpens, clicks: email.trackClicks });

    // 5. Headers: ours first, then the caller's custom headers override them case-insensitively.
    const headers: Record<string, string> = { 'X-Mailroom-Email-Id': email.id };
    if (project && linked) Object.assign(headers, listUnsubscribeHeaders(this.config, project.id, { id: linked.id }, email.type, content.topicId));
    if (content.replyTo) headers['Reply-To'] = content.replyTo;
    overrideHeaders(headers, content.headers);
    return { subject: rendered.subject, html, text, headers };
  }

  private async contactData(email: LoadedEmail): Promise<Record<string, unknown>> {
    if (!email.projectId || !email.contactId) return {};
    const contact = await this.contacts.findById(email.projectId, email.contactId);
    return contact?.data ?? {};
  }

  private async dkimKey(projectId: string, fromAddress: string): Promise<DkimKey | null> {
    const cacheKey = `${projectId}|${domainOf(fromAddress)}`;
    const hit = this.dkimCache.get(cacheKey);
    if (hit) return hit.key;
    const found = await this.domains.dkimKeyFor(projectId, fromAddress);
    const key = found ? { domainName: found.domainName, keySelector: found.keySelector, privateKey: found.privateKey } : null;
    this.dkimCache.set(cacheKey, { key });
    return key;
  }
}

/** Sets each custom header, first removing any default of the same name in another case. */
export function overrideHeaders(headers: Record<string, string>, custom: Record<string, string>): void {
  for (const [name, value] of Object.entries(custom)) {
    const lower = name.toLowerCase();
    for (const existing of Object.keys(headers)) if (existing.toLowerCase() === lower) delete headers[existing];
    headers[name] = value;
  }
}

/** Removes a header (any case) from the set and answers its value. */
function takeHeader(headers: Record<string, string>, lowerName: string): string | undefined {
  for (const name of Object.keys(headers)) {
    if (name.toLowerCase() !== lowerName) continue;
    const value = headers[name];
    delete headers[name];
    return value;
  }
  return undefined;
}
