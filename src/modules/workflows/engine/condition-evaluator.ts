import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../../../platform/database/sql-fragment';
import { ContactFieldsService } from '../../contacts/contact-fields.service';
import type { FieldType } from '../../contacts/data/field-types';
import { compileSingleFilter } from '../../filters/compile-filter';
import { Condition, toSegmentFilter } from '../graph/condition';

/** Evaluates a CONDITION with the segment compiler (one statement), so both share one set of comparison rules. */
@Injectable()
export class ConditionEvaluator {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
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
    const query =
      source === 'contact'
        ? sql`SELECT (${predicate}) AS result FROM contacts c WHERE c.project_id = ${projectId}::uuid AND c.id = ${contactId}`
        : sql`SELECT (${predicate}) AS result FROM (SELECT ${JSON.stringify(source === 'event' ? scope.event : scope.workflow)}::jsonb AS data) c`;
    const rows: Array<{ result: boolean }> = await this.dataSource.query(query.text, query.values);
    return rows[0]?.result === true;
  }
}
