import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../../layouts/RouteError';
import ContactDetailPage from './ContactDetailPage';
import ContactsListPage from './ContactsListPage';
import ImportPage from './ImportPage';
import './contacts.css';

export default function ContactsSection() {
  return (
    <Routes>
      <Route index element={<ContactsListPage />} />
      <Route path="import" element={<ImportPage />} />
      <Route path=":contactId" element={<ContactDetailPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
