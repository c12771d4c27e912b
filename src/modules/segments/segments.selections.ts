import { Injectable, OnModuleInit } from '@nestjs/common';
import { ContactSelections, type ContactExportSelection } from '../contacts';
import type { FilterTree } from '../filters';
import { AudienceService, type Audience } from './audience.service';
import { segmentNotFound } from './segments.errors';

/**
 * Fills contacts' `ContactSelections` port with the filter engine, so a bulk contact export
 * selects its contacts as a segment or campaign does: a segment's members, or a filter tree
 * checked and compiled as segment conditions are (the field paths of its 422 items start at `filter`).
 */
@Injectable()
export class SegmentsSelections implements OnModuleInit {
  constructor(
    private readonly selections: ContactSelections,
    private readonly audience: AudienceService,
  ) {}

  onModuleInit(): void {
    this.selections.register({
      check: async (projectId, selection) => {
        if (selection.segmentId !== undefined) {
          if (!(await this.audience.segmentDefinition(projectId, selection.segmentId))) throw segmentNotFound();
        } else await this.audience.validateTree(projectId, selection.filter, { root: 'filter' });
      },
      // A filter was checked when the export was requested; a segment deleted since fails the export (422 as its reason).
      condition: (projectId, selection) => this.audience.audienceCondition(projectId, audienceOf(selection)),
    });
  }
}

const audienceOf = (selection: ContactExportSelection): Audience =>
  selection.segmentId !== undefined ? { segmentId: selection.segmentId } : { tree: selection.filter as FilterTree };
