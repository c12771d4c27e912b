import type { UsageRefs } from './usage.registry';

/** The `segments` / `campaigns` / `workflows` lists of the usage endpoints (fields, events). */
export interface References {
  segments: Array<{ id: string; name: string }>;
  campaigns: Array<{ id: string; name: string }>;
  workflows: Array<{ id: string; name: string }>;
}

/** One entry per referencing record (a workflow referencing from several steps is listed once). */
export function referencesOf(refs: UsageRefs): References {
  const unique = (list: UsageRefs['segments']) => [...new Map(list.map((r) => [r.id, { id: r.id, name: r.name }])).values()];
  return { segments: unique(refs.segments), campaigns: unique(refs.campaigns), workflows: unique(refs.workflows) };
}
