import { lazy, Suspense } from 'react';
import { Loading, PageHeader } from '../../components/Feedback';

// recharts is heavy: the charts are their own chunk.
const Charts = lazy(() => import('./Charts'));

export default function AnalyticsSection() {
  return (
    <>
      <PageHeader title="Analytics" description="Sends, opens, clicks and bounces over time; the best campaigns; the most frequent events." />
      <Suspense fallback={<Loading label="Loading charts…" />}>
        <Charts />
      </Suspense>
    </>
  );
}
