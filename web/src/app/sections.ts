/**
 * The navigation of a project, in order. `path` is relative to `/p/:projectId`; every section
 * lives in `web/src/pages/<folder>/` and is registered in app/router.tsx.
 */
export const SECTIONS = [
  { path: '', label: 'Overview' },
  { path: 'contacts', label: 'Contacts' },
  { path: 'templates', label: 'Templates' },
  { path: 'segments', label: 'Segments' },
  { path: 'topics', label: 'Topics' },
  { path: 'campaigns', label: 'Campaigns' },
  { path: 'workflows', label: 'Workflows' },
  { path: 'activity', label: 'Activity' },
  { path: 'analytics', label: 'Analytics' },
  { path: 'domains', label: 'Domains' },
  { path: 'webhooks', label: 'Webhooks' },
  { path: 'billing', label: 'Billing' },
  { path: 'settings', label: 'Settings' },
] as const;
