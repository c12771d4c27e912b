import { type ApiFilterTree, type Filter, toApiTree } from '../segments/filterTree';

/** The contact list's filters (URL parameters) an export can take. */
export interface ListFilters {
  search?: string;
  subscribed?: string;
  topic?: string;
  confirmation?: string;
  snoozed?: string;
}

/**
 * The contact list's filters as the filter tree an export selects by, or the names of those the
 * segment condition language cannot say (double opt-in, snooze), which the export cannot apply.
 * The search becomes "email contains": the list's search also matches words of text fields.
 */
export function listFilterTree(list: ListFilters): { tree: ApiFilterTree | null; unsupported: string[] } {
  const unsupported = [list.confirmation && 'double opt-in', list.snoozed && 'snooze'].filter((name): name is string => Boolean(name));
  const filters: Filter[] = [];
  if (list.search) filters.push({ field: 'email', operator: 'contains', value: list.search });
  if (list.subscribed === 'true' || list.subscribed === 'false') filters.push({ field: 'subscribed', operator: 'equals', value: list.subscribed === 'true' });
  if (list.topic) filters.push({ field: `topics.${list.topic}`, operator: 'equals', value: true });
  return { tree: filters.length ? toApiTree({ logic: 'AND', groups: [{ filters }] }) : null, unsupported };
}
