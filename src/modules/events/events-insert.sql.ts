import { EVENT_COLUMNS } from './events.types';

/** SQL expressions (trusted text over the caller's FROM clause) for the columns of the events written. */
export interface EventInsertValues {
  projectId: string;
  contactId: string;
  name: string;
  /** A jsonb expression; NULL stores `{}`. */
  data: string;
  /** Defaults to the column's default, now() (the transaction's start): pass e.g. `clock_timestamp()` to keep order within it. */
  createdAt?: string;
}

/**
 * The only statement that writes `events` rows: `INSERT … SELECT <values> <from> RETURNING` the
 * stored columns (`EventRow`, read back with `fromEventRow`). `EventsService.recordMany` runs it
 * alone; other modules embed it as a CTE of their own statement (`ev AS (${insertEventsSql(…)})`)
 * to store events in the same round trip as the change they describe. Nothing else is needed
 * for consumers: the events table's commit trigger wakes the outbox (`outbox/`), which hands
 * every committed row on in `seq` order, whichever statement wrote it.
 *
 * `from` is the rest of the SELECT (`FROM …`, `WHERE …`, `ORDER BY …` for the insertion order).
 */
export function insertEventsSql(values: EventInsertValues, from: string): string {
  const createdAt = values.createdAt === undefined ? { column: '', value: '' } : { column: ', created_at', value: `, ${values.createdAt}` };
  return `INSERT INTO events (project_id, contact_id, name, data${createdAt.column})
  SELECT ${values.projectId}, ${values.contactId}, ${values.name}, coalesce(${values.data}, '{}'::jsonb)${createdAt.value}
  ${from}
  RETURNING ${EVENT_COLUMNS}`;
}
