import { Injectable } from '@nestjs/common';
import { Fragment, sql } from '../../../platform/database/sql-fragment';
import type { ContactExportSelection } from './contact-exports.rows';

/** What turns a segment id or a filter tree into contacts: segments registers it (it owns the filter engine). */
export interface ContactSelectionHandler {
  /** Checks a selection when it is requested: 404 for a segment not of the project, 422 naming `filter…` for a tree that does not hold. */
  check(projectId: string, selection: ContactExportSelection): Promise<void>;
  /** The selection as a condition over contacts `c` of the project. */
  condition(projectId: string, selection: ContactExportSelection): Promise<Fragment>;
}

/**
 * The port between contacts (which exports its contacts) and the filter engine (segments, which
 * imports contacts, so contacts cannot import it): filled once at start. A selection of every
 * contact needs no handler.
 */
@Injectable()
export class ContactSelections {
  private handler: ContactSelectionHandler | null = null;

  register(handler: ContactSelectionHandler): void {
    this.handler = handler;
  }

  async check(projectId: string, selection: ContactExportSelection): Promise<void> {
    if (isEveryContact(selection)) return;
    await this.selector().check(projectId, selection);
  }

  condition(projectId: string, selection: ContactExportSelection): Promise<Fragment> {
    return isEveryContact(selection) ? Promise.resolve(sql`TRUE`) : this.selector().condition(projectId, selection);
  }

  private selector(): ContactSelectionHandler {
    if (!this.handler) throw new Error('no contact selection handler registered');
    return this.handler;
  }
}

const isEveryContact = (selection: ContactExportSelection): boolean => selection.segmentId === undefined && selection.filter === undefined;
