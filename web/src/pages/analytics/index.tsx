import { EmptyState, PageHeader } from '../../components/Feedback';

/**
 * Placeholder of the Analytics section, mounted at /p/:projectId/analytics/* (app/router.tsx).
 * Owned by the engineer building this section: replace this file, keep its default export.
 */
export default function AnalyticsSection() {
  return (
    <>
      <PageHeader title="Analytics" description="Sends, opens and clicks over time, top campaigns and top events." />
      <EmptyState title="This page is not in the dashboard yet">
        <p>
          Meanwhile the API does it all: see <code>GET /analytics/timeseries</code> in the <a href="/docs">API reference</a>.
        </p>
      </EmptyState>
    </>
  );
}
