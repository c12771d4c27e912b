import { Injectable } from '@nestjs/common';

/** Whether an address may be a project's default sender: it is on one of the project's verified domains. */
export type SenderCheck = (projectId: string, email: string) => Promise<boolean>;

/** A project's template as a double opt-in confirmation: `ok`, `not_found`, or `without_link` (no `{{confirmUrl}}`). */
export type ConfirmationTemplateCheck = (projectId: string, templateId: string) => Promise<'ok' | 'not_found' | 'without_link'>;

/**
 * Where the modules owning domains and templates plug in the checks of a project's settings
 * (`defaultFrom`, `doubleOptIn.templateId`), so projects, below them in the layers, never imports
 * them (docs/architecture.md, "Layers"). Each check is registered once, by its owner.
 */
@Injectable()
export class ProjectSettingChecks {
  private senderCheck: SenderCheck | null = null;
  private templateCheck: ConfirmationTemplateCheck | null = null;

  registerSender(check: SenderCheck): void {
    if (this.senderCheck) throw new Error('a sender check is registered twice');
    this.senderCheck = check;
  }

  registerConfirmationTemplate(check: ConfirmationTemplateCheck): void {
    if (this.templateCheck) throw new Error('a confirmation template check is registered twice');
    this.templateCheck = check;
  }

  senderAllowed(projectId: string, email: string): Promise<boolean> {
    if (!this.senderCheck) throw new Error('no sender check is registered (DomainsModule fills it)');
    return this.senderCheck(projectId, email);
  }

  confirmationTemplate(projectId: string, templateId: string): ReturnType<ConfirmationTemplateCheck> {
    if (!this.templateCheck) throw new Error('no confirmation template check is registered (TemplatesModule fills it)');
    return this.templateCheck(projectId, templateId);
  }
}
