import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { retryOnConflict } from '../../../platform/database/pg-errors';
import { CONTACT_ERASED, EventsService } from '../../events';
import { ContactsRepository } from '../contacts.repository';
import { type DataSubject, ERASURE_SECTIONS, PersonalDataRegistry } from '../personal-data/personal-data.registry';
import { type ErasureStep, isSectionStep, stepsAfter } from './erasure-steps';
import { ErasuresRepository } from './erasures.repository';

/**
 * Runs one erasure step by step (`ERASURE_STEPS`). Each step is idempotent and is recorded once
 * done (`contact_erasures.step`), so a retried or resumed job goes on after the last recorded
 * step; the steps that must happen once (deleting the contact, emitting `contact.erased`) commit
 * with their record, under the job row's lock. Only the job's project is ever touched.
 */
@Injectable()
export class ErasureRunner {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly erasures: ErasuresRepository,
    private readonly contacts: ContactsRepository,
    private readonly registry: PersonalDataRegistry,
    private readonly events: EventsService,
  ) {}

  async run(projectId: string, erasureId: string): Promise<void> {
    const job = await this.erasures.start(projectId, erasureId);
    if (!job) return;
    const contact = await this.contacts.findById(projectId, job.contact_id);
    // Null once the contact is gone (a resumed job past `contact`): the steps left need no address.
    const subject: DataSubject | null = contact ? { id: contact.id, email: contact.email } : null;
    let reached = job.step;
    for (const step of stepsAfter(job.step)) {
      if (!(await this.runStep(projectId, erasureId, job.contact_id, subject, reached, step))) return;
      reached = step;
    }
  }

  async fail(projectId: string, erasureId: string, reason: string): Promise<void> {
    await this.erasures.fail(projectId, erasureId, reason.slice(0, 500));
  }

  /** Runs `step` and records it; false when another runner already moved the job past `reached` (this one stops). */
  private async runStep(projectId: string, id: string, contactId: string, subject: DataSubject | null, reached: ErasureStep | null, step: ErasureStep): Promise<boolean> {
    if (isSectionStep(step)) {
      if (subject) await this.registry.eraser(step)(projectId, subject);
      return this.erasures.reach(projectId, id, reached, step, false);
    }
    if (step === 'suppression') {
      await this.erasures.writeErasedAddress(projectId, contactId);
      return this.erasures.reach(projectId, id, reached, step, false);
    }
    if (step === 'contact') {
      // The cascades of the delete (emails' contact set to NULL) can meet a send's writes in the
      // other lock order, as ContactsService.remove does: the aborted transaction runs again.
      return retryOnConflict(() =>
        this.dataSource.transaction(async (em) => {
          if ((await this.erasures.lockStep(projectId, id, em)) !== reached) return false;
          const current = await this.contacts.findForUpdate(projectId, contactId, em);
          if (current) {
            // A last pass under the contact's lock: what was written since its section ran (an event tracked, an email sent) goes too.
            for (const name of ERASURE_SECTIONS) await this.registry.eraser(name)(projectId, { id: current.id, email: current.email }, em);
            await this.contacts.removeMany(projectId, [contactId], em);
          }
          return this.erasures.reach(projectId, id, reached, step, false, em);
        }),
      );
    }
    return this.dataSource.transaction(async (em) => {
      if ((await this.erasures.lockStep(projectId, id, em)) !== reached) return false;
      // Recorded without a contact (it is gone) and without its address: webhooks and workflows see only the id.
      await this.events.record(projectId, { contactId: null, name: CONTACT_ERASED, data: { contactId } }, em);
      return this.erasures.reach(projectId, id, reached, step, true, em);
    });
  }
}
