import { EmptyState, PageHeader } from '../../components/Feedback';

/**
 * Placeholder of the Activity section, mounted at /p/:projectId/activity/* (app/router.tsx).
 * Owned by the engineer building this section: replace this file, keep its default export.
 */
export default function ActivitySection() {
  return (
    <>
      <PageHeader title="Activity" description="Everything that happened in the project, newest first: sends, opens, clicks, bounces, events." />
      <EmptyState title="This page is not in the dashboard yet">
        <p>
          Meanwhile the API does it all: see <code>GET /activity</code> in the <a href="/docs">API reference</a>.
        </p>
      </EmptyState>
    </>
  );
}
