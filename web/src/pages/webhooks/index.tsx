import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../../layouts/RouteError';
import DeliveryPage from './DeliveryPage';
import NewWebhookPage from './NewWebhookPage';
import WebhookPage from './WebhookPage';
import WebhooksListPage from './WebhooksListPage';
import './webhooks.css';

export default function WebhooksSection() {
  return (
    <Routes>
      <Route index element={<WebhooksListPage />} />
      <Route path="new" element={<NewWebhookPage />} />
      <Route path=":webhookId" element={<WebhookPage />} />
      <Route path=":webhookId/deliveries/:deliveryId" element={<DeliveryPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
