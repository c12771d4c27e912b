import { EmptyState, PageHeader } from '../../components/Feedback';

/**
 * Placeholder of the Workflows section, mounted at /p/:projectId/workflows/* (app/router.tsx).
 * Owned by the engineer building this section: replace this file, keep its default export.
 */
export default function WorkflowsSection() {
  return (
    <>
      <PageHeader title="Workflows" description="Automations started by an event: send, wait, branch, call webhooks, update contacts." />
      <EmptyState title="This page is not in the dashboard yet">
        <p>
          Meanwhile the API does it all: see <code>GET/POST /workflows</code> in the <a href="/docs">API reference</a>.
        </p>
      </EmptyState>
    </>
  );
}
