import { Injectable } from '@nestjs/common';
import { logger } from '../../../../platform/logging/logger';
import { BillingService } from '../../../billing/billing.service';
import { ContactsService } from '../../../contacts/contacts.service';
import { EmailsService } from '../../../emails/emails.service';
import { SuppressionService } from '../../../emails/suppression/suppression.service';
import { skipReason } from '../../../emails/suppression/suppression.types';
import { trackingFor } from '../../../emails/use-cases/send-emails';
import { ProjectsService } from '../../../projects/projects.service';
import { TemplatesService } from '../../../templates/templates.service';
import { ExecutionsStore } from '../executions.store';
import type { StepContext, StepExecutor, StepOutcome } from '../step-executor';
import { executionContact } from './execution-contact';

/** SEND_EMAIL through the email pipeline: the template's type rules, variables = contact data + `event` + `workflow`. */
@Injectable()
export class SendEmailStep implements StepExecutor {
  readonly type = 'SEND_EMAIL';
  readonly control = false;
  private readonly log = logger('workflow-engine');

  constructor(
    private readonly templates: TemplatesService,
    private readonly contacts: ContactsService,
    private readonly suppression: SuppressionService,
    private readonly projects: ProjectsService,
    private readonly billing: BillingService,
    private readonly emails: EmailsService,
    private readonly executions: ExecutionsStore,
  ) {}

  async execute({ step, ex }: StepContext): Promise<StepOutcome> {
    const template = await this.templates.findOne(ex.project_id, step.config.templateId as string);
    const contact = await executionContact(this.contacts, ex);
    const suppressed = (await this.suppression.suppressedAmong([{ projectId: ex.project_id, email: contact.email }])).size > 0;
    const reason = skipReason(template.type, { suppressed, subscribed: contact.subscribed });
    if (reason) return { kind: 'next', status: 'SKIPPED', output: { skipped: reason }, exit: null };
    const project = await this.projects.findById(ex.project_id);
    const track = trackingFor(project.tracking, template.type, undefined);
    const variables = { ...contact.data, event: ex.event, workflow: ex.context };
    let emailIds: string[] = [];
    return {
      kind: 'next',
      status: 'COMPLETED',
      output: { templateId: template.id },
      exit: null,
      write: async (em) => {
        await this.billing.consume(em, ex.project_id, 'workflows', 1);
        emailIds = await this.emails.queue(
          { projectId: ex.project_id, templateId: template.id, subject: template.subject, body: template.body, fromName: template.fromName, replyTo: template.replyTo },
          { projectId: ex.project_id, templateId: template.id, workflowExecutionId: ex.id, type: template.type, fromAddress: template.fromAddress, trackOpens: track, trackClicks: track },
          [{ contactId: contact.id, toAddress: contact.email, toName: null, variables }],
          em,
        );
        await this.executions.recordEmail(em, ex.id, ex.steps_run, emailIds[0] ?? null);
        return () => this.emails.enqueue(emailIds, template.type).catch((err: unknown) => this.log.warn({ err }, 'email enqueue failed; the email sweep sends it'));
      },
    };
  }
}
