import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { Loading } from '../../components/Feedback';
import { NotFoundPage } from '../../layouts/RouteError';
import TemplatesListPage from './TemplatesListPage';

// The editor brings CodeMirror and liquidjs: its own chunk, loaded when a template is opened.
const TemplateEditorPage = lazy(() => import('./TemplateEditorPage'));

export default function TemplatesSection() {
  return (
    <Suspense fallback={<Loading label="Opening the editor…" />}>
      <Routes>
        <Route index element={<TemplatesListPage />} />
        <Route path="new" element={<TemplateEditorPage />} />
        <Route path=":templateId" element={<TemplateEditorPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Suspense>
  );
}
