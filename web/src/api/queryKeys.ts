/**
 * Query keys. Account-level data sits under its own root; everything that belongs to a project
 * starts with `['p', projectId, <resource>]`, so switching projects never shows another
 * project's cache and a mutation can invalidate one resource of one project:
 * `queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'contacts') })`.
 */
export const qk = {
  me: ['me'] as const,
  config: ['config'] as const,
  projects: ['projects'] as const,
  project: (projectId: string) => ['projects', projectId] as const,
  /** Project-scoped: `qk.p(id, 'contacts', { search })`, `qk.p(id, 'templates', templateId)`. */
  p: (projectId: string, resource: string, ...rest: unknown[]) => ['p', projectId, resource, ...rest] as const,
};
