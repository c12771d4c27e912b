import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { resolveLocale } from '../../../i18n/locales';
import { logger } from '../../../platform/logging/logger';
import { CounterStore } from '../../../platform/http/rate-limit/counter-store';
import { BillingLimitExceeded, BillingService } from '../../billing';
import { ConfirmationMailer, type ConfirmationWriter, CONFIRMATION_LINK_TTL_SECONDS, ContactsService, DoubleOptInService } from '../../contacts';
import { isContactId } from '../../events';
import { DomainsService } from '../../domains';
import type { Contact } from '../../contacts';
import { EmailQueueFacade, emailIds, parseSystemFrom, confirmToken, readConfirmToken } from '../../emails';
import type { Project } from '../../projects';
import { ProjectsService } from '../../projects';
import { TemplatesService } from '../../templates';
import { builtInConfirmationEmail } from './confirmation-email';
import { PageAnswer, renderRecipientPage } from './recipient-pages';
import { InvalidPage, invalidLinkPage } from './recipient-links.service';

const log = logger('double-opt-in');
const HOUR_MS = 3_600_000;

/**
 * Double opt-in's email and page (docs/consent.md). The email goes through the one
 * door for email (`EmailQueueFacade`), TRANSACTIONAL and untracked (a rewritten link would send
 * scanners through the click tracker); the link is signed for 7 days. GET shows a button, POST
 * confirms, so a link scanner confirms nothing. Anyone with the public key can trigger it, so
 * the project's name never enters a header (the built-in message comes from the project's default
 * sender on a verified domain, else from SYSTEM_FROM under its own name; the name is only in the
 * body, escaped), each counts as a transactional email for billing, and at most
 * `DOUBLE_OPT_IN_PER_HOUR` go out per project an hour: past either, the contact stays pending
 * without an email (a warning says why) and `POST /contacts/:id/confirmation` sends it later.
 */
@Injectable()
export class ConfirmationService implements OnModuleInit {
  private readonly systemFrom: { email: string; name: string | null };

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly contacts: ContactsService,
    private readonly optIns: DoubleOptInService,
    private readonly projects: ProjectsService,
    private readonly templates: TemplatesService,
    private readonly emails: EmailQueueFacade,
    private readonly mailer: ConfirmationMailer,
    private readonly domains: DomainsService,
    private readonly billing: BillingService,
    private readonly counters: CounterStore,
  ) {
    this.systemFrom = parseSystemFrom(config.email.systemFrom);
  }

  onModuleInit(): void {
    this.mailer.register({
      enabled: async (projectId) => (await this.projects.findById(projectId)).doubleOptIn?.enabled === true,
      compose: (projectId, contact) => this.compose(projectId, contact),
      deliver: (emailIds) => this.emails.enqueueGrouped(emailIds, 'TRANSACTIONAL'),
    });
  }

  /**
   * The confirmation email: the project's template (with `{{confirmUrl}}`) or the built-in message
   * in the contact's language, read now; the writer writes it in the caller's transaction and
   * gives the ids to enqueue once it committed (none when the recipient policy skipped the address).
   */
  async compose(projectId: string, contact: Contact): Promise<ConfirmationWriter> {
    const project = await this.projects.findById(projectId);
    const templateId = project.doubleOptIn?.templateId;
    const template = templateId ? await this.templates.findOne(projectId, templateId).catch(() => null) : null;
    const builtIn = builtInConfirmationEmail(resolveLocale(contact.data?.locale, project.language));
    const expiresAt = new Date(Date.now() + CONFIRMATION_LINK_TTL_SECONDS * 1000);
    const confirmUrl = `${this.config.publicUrl}/c/${confirmToken(this.config.appSecret, projectId, contact.id, expiresAt)}`;
    const perHour = this.config.email.doubleOptInPerHour;
    const sent = await this.counters.hit(`double-opt-in:${projectId}`, HOUR_MS);
    if (sent.count > perHour) {
      log.warn({ projectId, contactId: contact.id, perHour }, 'confirmation email skipped: the project sent DOUBLE_OPT_IN_PER_HOUR this hour; the contact stays pending');
      return async () => [];
    }
    const from = template ? { email: template.fromAddress, name: template.fromName } : await this.builtInSender(project);
    return async (em: EntityManager) => {
      try {
        await this.billing.consume(em, projectId, 'transactional', 1);
      } catch (err) {
        if (!(err instanceof BillingLimitExceeded)) throw err;
        log.warn({ projectId, contactId: contact.id }, 'confirmation email skipped: the project is over its transactional limit; the contact stays pending');
        return [];
      }
      return this.write(em, projectId, contact, { from, template, builtIn, confirmUrl, projectName: project.name });
    };
  }

  private async write(
    em: EntityManager,
    projectId: string,
    contact: Contact,
    { from, template, builtIn, confirmUrl, projectName }: { from: { email: string; name: string | null }; template: Awaited<ReturnType<TemplatesService['findOne']>> | null; builtIn: { subject: string; body: string }; confirmUrl: string; projectName: string },
  ): Promise<string[]> {
    return emailIds(await this.emails.queueForRecipients(
      projectId,
      {
        type: 'TRANSACTIONAL',
        fromAddress: from.email,
        tracking: false,
        content: {
          templateId: template?.id ?? null,
          subject: template?.subject ?? builtIn.subject,
          body: template?.body ?? builtIn.body,
          fromName: from.name,
          replyTo: template?.replyTo ?? null,
        },
      },
      [
        {
          contactId: contact.id,
          email: contact.email,
          name: null,
          subscribed: contact.subscribed,
          variables: { ...contact.data, confirmUrl, confirmProject: projectName, confirmEmail: contact.email },
        },
      ],
      em,
    ));
  }

  /** GET: the confirm button; never changes anything. */
  async page(token: string): Promise<PageAnswer> {
    const resolved = await this.resolve(token);
    if ('status' in resolved) return resolved;
    const { project, contact } = resolved;
    const done = contact.subscribed && contact.confirmation === 'confirmed';
    return { status: 200, html: this.render('confirm', project, contact, done), formRedirect: project.doubleOptIn?.redirectUrl ?? undefined };
  }

  /** POST: confirms a pending contact (a confirmed one: nothing changes) and redirects when the project says where. */
  async act(token: string): Promise<PageAnswer> {
    const resolved = await this.resolve(token);
    if ('status' in resolved) return resolved;
    const { project } = resolved;
    const contact = (await this.optIns.confirm(project.id, resolved.contact.id)) ?? resolved.contact;
    if (contact.confirmation !== 'confirmed') return { status: 200, html: this.render('confirm', project, contact, false) };
    const redirect = project.doubleOptIn?.redirectUrl;
    return redirect ? { redirect } : { status: 200, html: this.render('confirm', project, contact, true) };
  }

  /** Forged, expired, or for a contact or project that is gone: the friendly page, and nothing else happens. */
  private async resolve(token: string): Promise<{ project: Project; contact: Contact } | InvalidPage> {
    const ids = readConfirmToken(this.config.appSecret, token);
    if (ids === 'expired') return invalidLinkPage(410);
    if (!ids || !isContactId(ids.contactId)) return invalidLinkPage(404);
    const project = await this.projects.findById(ids.projectId).catch(() => null);
    const contact = project ? await this.contacts.findById(project.id, ids.contactId) : null;
    if (!project || !contact) return invalidLinkPage(404, project?.language);
    return { project, contact };
  }

  private render(kind: 'confirm', project: Project, contact: Contact, done: boolean): string {
    return renderRecipientPage({ kind, locale: resolveLocale(contact.data?.locale, project.language), email: contact.email, projectName: project.name, subscribed: contact.subscribed, done });
  }

  /** The project's default sender when its domain is verified, else SYSTEM_FROM as configured: never the project's name. */
  private async builtInSender(project: Project): Promise<{ email: string; name: string | null }> {
    if (project.defaultFromAddress && (await this.domains.senderAllowed(project.id, project.defaultFromAddress))) {
      return { email: project.defaultFromAddress, name: project.defaultFromName ?? null };
    }
    return this.systemFrom;
  }
}
