import { Injectable } from '@nestjs/common';
import { ContactFieldsService } from '../../contacts';
import type { FieldType } from '../../contacts';
import { compileSingleFilter } from '../../filters';
import { Condition, toSegmentFilter } from '../graph/condition';
import { WorkflowsRepository } from '../workflows.repository';

/** Evaluates a CONDITION with the segment compiler (one statement), so both share one set of comparison rules. */
@Injectable()
export class ConditionEvaluator {
  constructor(
    private readonly repository: WorkflowsRepository,
    private readonly contactFields: ContactFieldsService,
  ) {}

  async evaluate(projectId: string, contactId: string, condition: Condition, scope: { event: Record<string, unknown>; workflow: Record<string, unknown> }): Promise<boolean> {
    const { source, filter } = toSegmentFilter(condition);
    const fieldTypes = new Map<string, FieldType>();
    if (source === 'contact' && filter.field.startsWith('data.')) {
      // A contact key compares by its inferred type in the project; event and context values by their own.
      for (const row of await this.contactFields.keyTypes(projectId, [filter.field.slice(5)])) fieldTypes.set(row.key, row.type);
    }
    const predicate = compileSingleFilter(projectId, filter, { fieldTypes, segments: new Map() });
    return this.repository.conditionHolds(projectId, predicate, source === 'contact' ? { contactId } : { data: source === 'event' ? scope.event : scope.workflow });
  }
}
