import { NavLink, Route, Routes } from 'react-router';
import { PageHeader } from '../../components/Feedback';
import { NotFoundPage } from '../../layouts/RouteError';
import { projectPath, useProjectId } from '../../lib/project';
import AuditLogSettings from './AuditLogSettings';
import ErasureSettings from './ErasureSettings';
import GeneralSettings from './GeneralSettings';
import KeysSettings from './KeysSettings';
import MembersSettings from './MembersSettings';
import SecuritySettings from './SecuritySettings';

const TABS = [
  { path: '', label: 'General' },
  { path: 'keys', label: 'API keys' },
  { path: 'members', label: 'Members' },
  { path: 'security', label: 'Security' },
  { path: 'audit-log', label: 'Audit log' },
  { path: 'erasures', label: 'Erasures' },
];

export default function SettingsSection() {
  const projectId = useProjectId();
  return (
    <>
      <PageHeader title="Settings" />
      <nav className="tabs" aria-label="Settings">
        {TABS.map((t) => (
          <NavLink key={t.path} to={projectPath(projectId, 'settings', ...(t.path ? [t.path] : []))} end={t.path === ''}>
            {t.label}
          </NavLink>
        ))}
      </nav>
      <Routes>
        <Route index element={<GeneralSettings />} />
        <Route path="keys" element={<KeysSettings />} />
        <Route path="members" element={<MembersSettings />} />
        <Route path="security" element={<SecuritySettings />} />
        <Route path="audit-log" element={<AuditLogSettings />} />
        <Route path="erasures" element={<ErasureSettings />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </>
  );
}
