import { Fragment, sql } from '../../../platform/database/sql-fragment';
import { splitPatterns } from '../event-patterns';

/** Whether the event name `name` (a trusted column expression) matches the patterns: `matches` (event-patterns.ts) in SQL. */
export function nameMatchesSql(name: Fragment, patterns: readonly string[]): Fragment {
  const { all, exact, prefixes } = splitPatterns(patterns);
  return sql`(${all}::boolean OR ${name} = ANY(${exact}::text[])
    OR EXISTS (SELECT 1 FROM unnest(${prefixes}::text[]) pf WHERE starts_with(${name}, pf) AND length(${name}) > length(pf)))`;
}
