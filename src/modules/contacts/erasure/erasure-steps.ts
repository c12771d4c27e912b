import { ERASURE_SECTIONS, type ErasableSectionName } from '../personal-data/personal-data.registry';

/** Persisted in contact_erasures.status. */
export type ErasureStatus = 'queued' | 'running' | 'completed' | 'failed';

/**
 * The steps of an erasure, in order; persisted in contact_erasures.step (the last one done), so
 * renaming one strands the jobs that reached it. First each personal-data section erases its
 * records (`ERASURE_SECTIONS`), then the hashed address is written (`suppression`), then the
 * contact goes (`contact`: in one transaction with a last pass of every section, which catches
 * what was written meanwhile), then `contact.erased` is emitted (`announced`, with the job's
 * completion).
 */
export const ERASURE_STEPS = [...ERASURE_SECTIONS, 'suppression', 'contact', 'announced'] as const;
export type ErasureStep = ErasableSectionName | 'suppression' | 'contact' | 'announced';

/** The steps still to run after `reached` (null: none done yet); a step no longer known restarts the job (every step is idempotent). */
export function stepsAfter(reached: string | null): ErasureStep[] {
  const done = reached === null ? -1 : (ERASURE_STEPS as readonly string[]).indexOf(reached);
  return ERASURE_STEPS.slice(done + 1);
}

/** Whether the step is one of a personal-data section (run by its module's eraser). */
export const isSectionStep = (step: ErasureStep): step is ErasableSectionName => (ERASURE_SECTIONS as readonly string[]).includes(step);
