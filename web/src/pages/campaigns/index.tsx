import { EmptyState, PageHeader } from '../../components/Feedback';

/**
 * Placeholder of the Campaigns section, mounted at /p/:projectId/campaigns/* (app/router.tsx).
 * Owned by the engineer building this section: replace this file, keep its default export.
 */
export default function CampaignsSection() {
  return (
    <>
      <PageHeader title="Campaigns" description="One email sent now or on a schedule to all contacts, a segment or a filtered audience, with live stats." />
      <EmptyState title="This page is not in the dashboard yet">
        <p>
          Meanwhile the API does it all: see <code>GET/POST /campaigns</code> in the <a href="/docs">API reference</a>.
        </p>
      </EmptyState>
    </>
  );
}
