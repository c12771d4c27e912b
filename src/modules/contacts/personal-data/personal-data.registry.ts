import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * The sections of what the service holds about a contact, in the order a contact's export writes
 * them (`GET /contacts/:id/export`, docs/personal-data.md). `contact` and `exportedAt` are the
 * export's own; every other key is a section some module registers.
 */
export const PERSONAL_DATA_SECTIONS = ['topics', 'consent', 'events', 'emails', 'executions', 'inboundMessages'] as const;
export type PersonalDataSectionName = (typeof PERSONAL_DATA_SECTIONS)[number];

/** What is kept about a contact but not exported (it is derived from the contact's data): only erased. */
export const ERASE_ONLY_SECTIONS = ['segmentMemberships'] as const;
export type EraseOnlySectionName = (typeof ERASE_ONLY_SECTIONS)[number];
export type ErasableSectionName = PersonalDataSectionName | EraseOnlySectionName;

/**
 * The order an erasure runs the sections in (docs/personal-data.md, "Erasure"): what refers to the
 * contact first, its emails (anonymised, not deleted) last. `topics` and `consent` have nothing of
 * their own to erase (the contact's choices go with it; consent records are events).
 */
export const ERASURE_SECTIONS: readonly ErasableSectionName[] = ['events', 'executions', 'segmentMemberships', 'inboundMessages', 'emails', 'topics', 'consent'];

/** The contact a section is asked about: its id, and its address for records kept by address (inbound mail). */
export interface DataSubject {
  id: string;
  email: string;
}

/**
 * One module's part of a contact's personal data. `export` gives the contact's records in
 * batches (each bounded, read with a keyset cursor), so a contact with 100,000 events streams
 * without the process holding them. A section is a list in the export, newest first where its
 * records have a time.
 * `erase` deletes (or anonymises) the same records, so what is exported and what is erased are
 * one list.
 */
export interface PersonalDataSection {
  readonly name: PersonalDataSectionName;
  export(projectId: string, subject: DataSubject): AsyncIterable<unknown[]>;
  erase: EraseSection;
}

/**
 * Erases the contact's records of one section, set-based. Idempotent (a resumed erasure runs it
 * again); in the caller's transaction with `manager` (the erasure's last pass, just before the
 * contact is deleted, catches what was written meanwhile).
 */
export type EraseSection = (projectId: string, subject: DataSubject, manager?: EntityManager) => Promise<void>;

/** A section that is only erased (`ERASE_ONLY_SECTIONS`). */
export interface ErasureOnlySection {
  readonly name: EraseOnlySectionName;
  erase: EraseSection;
}

/**
 * Where the modules that keep a contact's data plug in its export, so contacts never reads their
 * tables nor imports them (they stand above it): emails (`emails`), inbound (`inboundMessages`)
 * and workflows (`executions`) register theirs; contacts registers its own and those of the
 * modules below it (`topics`, `consent`, `events`). Each section filters by the project it is given.
 */
@Injectable()
export class PersonalDataRegistry {
  private readonly sections = new Map<ErasableSectionName, PersonalDataSection | ErasureOnlySection>();

  register(section: PersonalDataSection | ErasureOnlySection): void {
    if (this.sections.has(section.name)) throw new Error(`personal data section ${section.name} is registered twice`);
    this.sections.set(section.name, section);
  }

  /** Every section in export order; a section no module registered is an empty list (its module is not loaded). */
  all(): PersonalDataSection[] {
    return PERSONAL_DATA_SECTIONS.map((name) => (this.sections.get(name) as PersonalDataSection | undefined) ?? { name, export: async function* () {}, erase: nothingToErase });
  }

  /** The eraser of a section; a section no module registered has nothing to erase. */
  eraser(name: ErasableSectionName): EraseSection {
    return this.sections.get(name)?.erase ?? nothingToErase;
  }
}

const nothingToErase: EraseSection = async () => {};

/**
 * A section's batches: runs a keyset walk to its end, `page(after)` giving a batch and the cursor
 * after it (null on the last), e.g. a cursor list's pages (`next: page.hasMore ? page.cursor : null`).
 */
export async function* keysetBatches<T, C>(page: (after: C | null) => Promise<{ items: T[]; next: C | null }>): AsyncGenerator<T[]> {
  let after: C | null = null;
  do {
    const { items, next } = await page(after);
    yield items;
    after = next;
  } while (after !== null);
}
