import { Injectable } from '@nestjs/common';
import { logger } from '../../../../platform/logging/logger';
import { BillingService } from '../../../billing';
import { ContactsService } from '../../../contacts';
import { dueEmailIds, EmailQueueFacade, emailIds as queuedIds } from '../../../emails';
import { TemplatesService } from '../../../templates';
import { ExecutionsStore } from '../executions.store';
import type { StepContext, StepExecutor, StepOutcome } from '../step-executor';
import { executionContact } from './execution-contact';
import { storedConfig } from '../../graph/step-config';

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

  /**
   * The recipient policy is the email door's (`EmailQueueFacade`), applied in the step's commit:
   * a recipient it refuses gets no email and costs nothing, and the step is recorded SKIPPED with
   * the reason; the execution goes on either way.
   */
  async execute({ step, ex }: StepContext): Promise<StepOutcome> {
    const template = await this.templates.findOne(ex.project_id, storedConfig(step, 'SEND_EMAIL').templateId);
    const contact = await executionContact(this.contacts, ex);
    const variables = { ...contact.data, event: ex.event, workflow: ex.context };
    return {
      kind: 'next',
      status: 'COMPLETED',
      output: { templateId: template.id },
      exit: null,
      write: async (em) => {
        const [outcome] = await this.emails.queueForRecipients(
          ex.project_id,
          {
            type: template.type,
            fromAddress: template.fromAddress,
            workflowExecutionId: ex.id,
            content: { templateId: template.id, subject: template.subject, body: template.body, fromName: template.fromName, replyTo: template.replyTo },
          },
          [{ contactId: contact.id, email: contact.email, name: null, subscribed: contact.subscribed, snoozedUntil: contact.snoozedUntil, variables }],
          em,
        );
        if ('skipped' in outcome) {
          await this.executions.recordSkipped(em, ex.id, ex.steps_run, { skipped: outcome.skipped });
          return { after: () => Promise.resolve(), skipped: true };
        }
        // Over the monthly limit, this throws and nothing of the step is written (the engine FAILS it).
        await this.billing.consume(em, ex.project_id, 'workflows', 1);
        const emailIds = queuedIds([outcome]);
        await this.executions.recordEmail(em, ex.id, ex.steps_run, emailIds[0] ?? null);
        return { after: () => this.emails.enqueue(dueEmailIds([outcome]), template.type).catch((err: unknown) => this.log.warn({ err }, 'email enqueue failed; the email sweep sends it')) };
      },
    };
  }
}
