import type { Project } from '../api/types';

/** A project as `GET /users/@me/projects/:id` answers it, for component tests; `over` sets what the test is about. */
export const testProject = (over: Partial<Project> = {}): Project => ({
  id: 'p1',
  name: 'Acme',
  publicPrefix: 'pk_1234567',
  secretPrefix: 'sk_1234567',
  disabled: false,
  disabledReason: null,
  tracking: 'ENABLED',
  language: 'en',
  defaultFrom: null,
  doubleOptIn: { enabled: false, templateId: null, redirectUrl: null },
  retention: { eventsDays: null, emailContentDays: 30, emailsDays: null, inboundDays: 30 },
  role: 'OWNER',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});
