import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../../layouts/RouteError';
import SegmentDetailPage from './SegmentDetailPage';
import SegmentEditorPage from './SegmentEditorPage';
import SegmentsListPage from './SegmentsListPage';
import './segments.css';

export default function SegmentsSection() {
  return (
    <Routes>
      <Route index element={<SegmentsListPage />} />
      <Route path="new" element={<SegmentEditorPage />} />
      <Route path=":segmentId" element={<SegmentDetailPage />} />
      <Route path=":segmentId/edit" element={<SegmentEditorPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
