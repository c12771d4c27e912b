import type { DataSource } from 'typeorm';

export interface Reference {
  id: string;
  name: string | null;
}

export interface References {
  segments: Reference[];
  campaigns: Reference[];
  workflows: Reference[];
}

/**
 * jsonpath tests run against whole rows (`to_jsonb(t)`), so they hold whatever columns the
 * segments / campaigns / workflows modules choose: a reference is a string value anywhere in
 * the row (a filter's `field`, a trigger's `eventName`, an UPDATE_CONTACT key). Evaluated
 * `silent`: a value of another shape (e.g. `updates` not an object) is no match, not an error.
 */
export interface ReferenceMatcher {
  paths: string[];
  vars: Record<string, unknown>;
}

const OWNERS = ['segments', 'campaigns', 'workflows'] as const;
/** Child tables whose rows belong to a workflow (steps carry the conditions and trigger names). */
const WORKFLOW_CHILDREN = ['workflow_steps', 'workflow_transitions'];

/**
 * Finds the segments, campaigns and workflows of a project that reference something. Tables
 * that do not exist (yet) contribute empty lists; the check is a real query either way.
 */
export async function findReferences(db: DataSource, projectId: string, matcher: ReferenceMatcher): Promise<References> {
  const tables: Array<{ table_name: string; columns: string[] }> = await db.query(
    `SELECT c.table_name::text, array_agg(c.column_name::text) AS columns
     FROM information_schema.columns c
     WHERE c.table_schema = 'public' AND c.table_name = ANY($1::text[])
     GROUP BY c.table_name`,
    [[...OWNERS, ...WORKFLOW_CHILDREN]],
  );
  const columnsOf = new Map(tables.map((t) => [t.table_name, t.columns]));
  const test = (alias: string) => matcher.paths.map((_, i) => `jsonb_path_exists(to_jsonb(${alias}), $${i + 2}::jsonpath, $${matcher.paths.length + 2}::jsonb, true)`).join(' OR ');
  const params = [projectId, ...matcher.paths, JSON.stringify(matcher.vars)];
  const result: References = { segments: [], campaigns: [], workflows: [] };
  for (const owner of OWNERS) {
    const columns = columnsOf.get(owner);
    if (!columns?.includes('project_id') || !columns.includes('id')) continue;
    const children =
      owner === 'workflows'
        ? WORKFLOW_CHILDREN.filter((child) => columnsOf.get(child)?.includes('workflow_id')).map(
            (child) => `EXISTS (SELECT 1 FROM ${child} ch WHERE ch.workflow_id = t.id AND (${test('ch')}))`,
          )
        : [];
    const rows: Array<{ id: string; name: string | null }> = await db.query(
      `SELECT t.id::text AS id, to_jsonb(t)->>'name' AS name FROM ${owner} t
       WHERE t.project_id = $1 AND (${[test('t'), ...children].join(' OR ')})
       ORDER BY 2, 1 LIMIT 1000`,
      params,
    );
    result[owner] = rows.map((r) => ({ id: r.id, name: r.name }));
  }
  return result;
}

/** References to a custom field `data.<path>` (or to a path below it), or writes of its top-level key. */
export function fieldMatcher(field: string): ReferenceMatcher {
  const key = field.replace(/^data\./, '');
  return {
    paths: ['$.** ? (@ == $f || @ starts with $p)', '$.**.updates.keyvalue() ? (@.key == $k)'],
    vars: { f: field, p: `${field}.`, k: key },
  };
}

/** References to an event name: `event.<name>` filter fields and `eventName` triggers/waits. */
export function eventMatcher(name: string): ReferenceMatcher {
  return {
    paths: ['$.** ? (@ == $e)', '$.**.eventName ? (@ == $n)', '$.**.event_name ? (@ == $n)'],
    vars: { e: `event.${name}`, n: name },
  };
}

/** Standard fields are referenced as a filter's `field` value only. */
export function standardFieldMatcher(field: string): ReferenceMatcher {
  return { paths: ['$.**.field ? (@ == $f)'], vars: { f: field } };
}
