import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../../layouts/RouteError';
import TopicPage from './TopicPage';
import TopicsListPage from './TopicsListPage';

export default function TopicsSection() {
  return (
    <Routes>
      <Route index element={<TopicsListPage />} />
      <Route path=":topicId" element={<TopicPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
