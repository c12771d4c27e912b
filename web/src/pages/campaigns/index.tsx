import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../../layouts/RouteError';
import '../segments/segments.css';
import './campaigns.css';
import CampaignDetailPage from './CampaignDetailPage';
import CampaignEditorPage from './CampaignEditorPage';
import CampaignsListPage from './CampaignsListPage';

export default function CampaignsSection() {
  return (
    <Routes>
      <Route index element={<CampaignsListPage />} />
      <Route path="new" element={<CampaignEditorPage />} />
      <Route path=":campaignId" element={<CampaignDetailPage />} />
      <Route path=":campaignId/edit" element={<CampaignEditorPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
