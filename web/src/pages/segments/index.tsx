import { EmptyState, PageHeader } from '../../components/Feedback';

/**
 * Placeholder of the Segments section, mounted at /p/:projectId/segments/* (app/router.tsx).
 * Owned by the engineer building this section: replace this file, keep its default export.
 */
export default function SegmentsSection() {
  return (
    <>
      <PageHeader title="Segments" description="Groups of contacts chosen by filters (dynamic) or by hand (static), for campaigns and workflows." />
      <EmptyState title="This page is not in the dashboard yet">
        <p>
          Meanwhile the API does it all: see <code>GET/POST /segments</code> in the <a href="/docs">API reference</a>.
        </p>
      </EmptyState>
    </>
  );
}
