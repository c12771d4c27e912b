import { Injectable } from '@nestjs/common';
import { logger } from '../../../../platform/logging/logger';
import { BillingService } from '../../../billing/billing.service';
import { ContactsService } from '../../../contacts/contacts.service';
import { EmailQueueFacade, emailIds as queuedIds } from '../../../emails/email-queue.facade';
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
    private readonly billing: BillingService,
    private readonly emails: EmailQueueFacade,
    private readonly executions: ExecutionsStore,
  ) {}

  async execute({ step, ex }: StepContext): Promise<StepOutcome> {
    const template = await this.templates.findOne(ex.project_id, step.config.templateId as string);
    const contact = await executionContact(this.contacts, ex);
    const reason = await this.emails.skipReasonFor(ex.project_id, template.type, contact);
    if (reason) return { kind: 'next', status: 'SKIPPED', output: { skipped: reason }, exit: null };
    const variables = { ...contact.data, event: ex.event, workflow: ex.context };
    let emailIds: string[] = [];
    return {
      kind: 'next',
      status: 'COMPLETED',
      output: { templateId: template.id },
      exit: null,
      write: async (em) => {
        await this.billing.consume(em, ex.project_id, 'workflows', 1);
        emailIds = queuedIds(
          await this.emails.queueForRecipients(
            ex.project_id,
            {
              type: template.type,
              fromAddress: template.fromAddress,
              workflowExecutionId: ex.id,
              content: { templateId: template.id, subject: template.subject, body: template.body, fromName: template.fromName, replyTo: template.replyTo },
            },
            [{ contactId: contact.id, email: contact.email, name: null, subscribed: contact.subscribed, variables }],
            em,
          ),
        );
        await this.executions.recordEmail(em, ex.id, ex.steps_run, emailIds[0] ?? null);
        return () => this.emails.enqueue(emailIds, template.type).catch((err: unknown) => this.log.warn({ err }, 'email enqueue failed; the email sweep sends it'));
      },
    };
  }
}
