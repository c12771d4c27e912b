import type { DataSource, EntityManager } from 'typeorm';
import { automock } from '../../../../test/support/automock';
import { CONTACT_ERASED, EventsService } from '../../events';
import { ContactsRepository } from '../contacts.repository';
import type { ContactRow } from '../contacts.rows';
import { ERASURE_SECTIONS, type ErasableSectionName, PersonalDataRegistry } from '../personal-data/personal-data.registry';
import { ErasureRunner } from './erasure-runner';
import { ERASURE_STEPS, type ErasureStep, stepsAfter } from './erasure-steps';
import { ErasuresRepository } from './erasures.repository';

const P = 'p1';
const ID = 'e1';
const CONTACT = 'cnt_0123456789abcdef0123456789abcdef';

/**
 * The runner against a job row kept in memory: `reach` moves it only from the step it stands at
 * (as the guarded UPDATE does), and a section's eraser may be made to fail once (a crash part-way).
 */
function setUp(options: { step?: ErasureStep | null; failOnce?: ErasableSectionName } = {}) {
  const job = { status: 'running' as string, step: options.step ?? null };
  const calls: string[] = [];
  let failed = false;
  const registry = new PersonalDataRegistry();
  for (const name of ERASURE_SECTIONS) {
    const erase = async (_p: string, _s: unknown, manager?: EntityManager) => {
      if (name === options.failOnce && !failed) {
        failed = true;
        throw new Error('connection lost');
      }
      calls.push(manager ? `${name} (last pass)` : name);
    };
    registry.register(name === 'segmentMemberships' ? { name, erase } : { name, erase, export: async function* () {} });
  }
  let contactExists = true;
  const erasures = automock(ErasuresRepository, {
    start: async () => (job.status === 'running' || job.status === 'queued' ? { contact_id: CONTACT, step: job.step } : null),
    reach: async (_p, _id, previous, step, complete) => {
      if (job.step !== previous) return false;
      job.step = step;
      if (complete) job.status = 'completed';
      calls.push(`reach ${step}`);
      return true;
    },
    lockStep: async () => (job.status === 'running' ? job.step : undefined),
    writeErasedAddress: async () => void calls.push('suppression'),
  });
  const contacts = automock(ContactsRepository, {
    findById: async () => (contactExists ? ({ id: CONTACT, email: 'ann@example.com' } as ContactRow) : null),
    findForUpdate: async () => (contactExists ? ({ id: CONTACT, email: 'ann@example.com' } as ContactRow) : null),
    removeMany: async () => {
      contactExists = false;
      calls.push('delete contact');
      return [CONTACT];
    },
  });
  const events = automock(EventsService, { record: jest.fn(async () => ({}) as never) });
  const dataSource = { transaction: async (work: (em: EntityManager) => Promise<unknown>) => work({} as EntityManager) } as unknown as DataSource;
  const runner = new ErasureRunner(dataSource, erasures, contacts, registry, events);
  return { runner, job, calls, events, erasures };
}

describe('erasure steps', () => {
  it('runs every step after the one reached, and none after the last', () => {
    expect(stepsAfter(null)).toEqual([...ERASURE_STEPS]);
    expect(stepsAfter('emails')[0]).toBe(ERASURE_STEPS[ERASURE_STEPS.indexOf('emails') + 1]);
    expect(stepsAfter('announced')).toEqual([]);
    // A step no longer known: from the start (every step is idempotent).
    expect(stepsAfter('retired-step')).toEqual([...ERASURE_STEPS]);
  });
});

describe('ErasureRunner', () => {
  it('erases each section, writes the hashed address, deletes the contact after a last pass, then emits contact.erased once', async () => {
    const { runner, job, calls, events } = setUp();
    await runner.run(P, ID);
    expect(job).toEqual({ status: 'completed', step: 'announced' });
    const order = calls.filter((c) => !c.startsWith('reach'));
    expect(order).toEqual([...ERASURE_SECTIONS, 'suppression', ...ERASURE_SECTIONS.map((s) => `${s} (last pass)`), 'delete contact']);
    expect(events.record).toHaveBeenCalledTimes(1);
    expect(events.record).toHaveBeenCalledWith(P, { contactId: null, name: CONTACT_ERASED, data: { contactId: CONTACT } }, expect.anything());
  });

  it('a step that fails stops the job where it stood; the retry resumes after the last recorded step and completes once', async () => {
    const { runner, job, calls, events } = setUp({ failOnce: 'inboundMessages' });
    await expect(runner.run(P, ID)).rejects.toThrow('connection lost');
    expect(job).toEqual({ status: 'running', step: 'segmentMemberships' });
    calls.length = 0;
    await runner.run(P, ID);
    expect(calls[0]).toBe('inboundMessages');
    expect(calls).not.toContain('events');
    expect(job.status).toBe('completed');
    expect(events.record).toHaveBeenCalledTimes(1);
    // A third run (a duplicate queue job) finds it finished and does nothing.
    calls.length = 0;
    await runner.run(P, ID);
    expect(calls).toEqual([]);
    expect(events.record).toHaveBeenCalledTimes(1);
  });

  it('resumed after the contact is gone, only announces', async () => {
    const { runner, job, calls, events } = setUp({ step: 'contact' });
    await runner.run(P, ID);
    expect(calls).toEqual(['reach announced']);
    expect(job.status).toBe('completed');
    expect(events.record).toHaveBeenCalledTimes(1);
  });

  it('stops quietly when another runner moved the job on', async () => {
    const { runner, job, calls, events, erasures } = setUp();
    // This runner read the job before the other one recorded `events`: its own record of `events` (from none) is refused.
    erasures.start.mockImplementationOnce(async () => {
      job.step = 'events';
      return { contact_id: CONTACT, step: null };
    });
    await runner.run(P, ID);
    expect(calls.filter((c) => c.startsWith('reach'))).toEqual([]);
    expect(job.step).toBe('events');
    expect(events.record).not.toHaveBeenCalled();
  });
});
