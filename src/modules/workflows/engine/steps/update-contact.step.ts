import { Injectable } from '@nestjs/common';
import { ContactsService } from '../../../contacts';
import type { StepContext, StepExecutor, StepOutcome } from '../step-executor';
import { storedConfig } from '../../graph/step-config';

/** UPDATE_CONTACT: patches the contact's data and subscription. */
@Injectable()
export class UpdateContactStep implements StepExecutor {
  readonly type = 'UPDATE_CONTACT';
  readonly control = false;

  constructor(private readonly contacts: ContactsService) {}

  async execute({ step, ex }: StepContext): Promise<StepOutcome> {
    const c = storedConfig(step, 'UPDATE_CONTACT');
    const action = c.subscriptionAction ?? 'none';
    const updated = await this.contacts.patch(ex.project_id, ex.contact_id, {
      data: (c.updates as Record<string, never> | undefined) ?? undefined,
      subscribed: action === 'subscribe' ? true : action === 'unsubscribe' ? false : undefined,
    });
    return { kind: 'next', status: 'COMPLETED', output: { subscribed: updated.subscribed, updated: Object.keys(c.updates ?? {}) }, exit: null };
  }
}
