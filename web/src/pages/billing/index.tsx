import { EmptyState, PageHeader } from '../../components/Feedback';

/**
 * Placeholder of the Billing section, mounted at /p/:projectId/billing/* (app/router.tsx).
 * Owned by the engineer building this section: replace this file, keep its default export.
 */
export default function BillingSection() {
  return (
    <>
      <PageHeader title="Billing" description="Monthly limits and consumption per category, and the Stripe checkout and portal when configured." />
      <EmptyState title="This page is not in the dashboard yet">
        <p>
          Meanwhile the API does it all: see <code>GET /users/@me/projects/:id/billing-limits</code> in the <a href="/docs">API reference</a>.
        </p>
      </EmptyState>
    </>
  );
}
