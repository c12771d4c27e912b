import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../../../platform/database/sql-fragment';
import type { FieldType } from '../../contacts/data/field-types';
import { compileSingleFilter } from '../../segments/filter/compile-filter';
import { Condition, toSegmentFilter } from '../graph/condition';

/** Evaluates a CONDITION with the segment compiler (one statement), so both share one set of comparison rules. */
@Injectable()
export class ConditionEvaluator {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async evaluate(projectId: string, contactId: string, condition: Condition, scope: { event: Record<string, unknown>; workflow: Record<string, unknown> }): Promise<boolean> {
    const { source, filter } = toSegmentFilter(condition);
    const fieldTypes = new Map<string, FieldType>();
    if (source === 'contact' && filter.field.startsWith('data.')) {
      // A contact key compares by its inferred type in the project; event and context values by their own.
      const rows: Array<{ type: FieldType }> = await this.dataSource.query(`SELECT type FROM contact_fields WHERE project_id = $1 AND key = $2`, [projectId, filter.field.slice(5)]);
      if (rows[0]) fieldTypes.set(filter.field.slice(5), rows[0].type);
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
