import { useQueryClient } from '@tanstack/react-query';
import { DropdownMenu } from 'radix-ui';
import { useEffect, useState } from 'react';
import { Link, NavLink, Outlet, useNavigate } from 'react-router';
import { accountApi, useMe, useProject, useProjects } from '../api/account';
import { ApiError } from '../api/errors';
import { SECTIONS } from '../app/sections';
import { Button } from '../components/Button';
import { ErrorMessage } from '../components/ErrorMessage';
import { Loading } from '../components/Feedback';
import { Toasts } from '../components/Toasts';
import { useApiMutation } from '../lib/forms';
import { projectPath, rememberProject, useProjectId } from '../lib/project';

function ProjectSwitcher({ projectId, name }: { projectId: string; name: string }) {
  const projects = useProjects();
  const navigate = useNavigate();
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <button type="button" className="project-switcher" aria-label={`Project: ${name}. Switch project`}>
          <span className="project-switcher-name">{name}</span>
          <span aria-hidden="true">▾</span>
        </button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="start" sideOffset={4}>
          <DropdownMenu.Label className="menu-label">Projects</DropdownMenu.Label>
          {projects.isPending && <DropdownMenu.Item disabled className="menu-item">Loading…</DropdownMenu.Item>}
          {projects.isError && <DropdownMenu.Item disabled className="menu-item">Could not load projects</DropdownMenu.Item>}
          {projects.data?.map((p) => (
            <DropdownMenu.Item key={p.id} className="menu-item" onSelect={() => navigate(projectPath(p.id))}>
              {p.id === projectId ? '✓ ' : ''}
              {p.name}
            </DropdownMenu.Item>
          ))}
          <DropdownMenu.Separator className="menu-separator" />
          <DropdownMenu.Item className="menu-item" onSelect={() => navigate('/projects/new')}>
            New project…
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

function VerifyBanner({ email }: { email: string }) {
  const resend = useApiMutation({ mutationFn: () => accountApi.requestVerification(email) });
  return (
    <div className="banner banner-info">
      <span>Confirm your address: we sent a link to {email}.</span>
      {resend.isSuccess ? (
        <span role="status">Sent again. Check your inbox.</span>
      ) : (
        <Button className="btn-small" onClick={() => resend.submit()} pending={resend.isPending} pendingLabel="Sending…">
          Resend the email
        </Button>
      )}
      <ErrorMessage error={resend.error} />
    </div>
  );
}

function UserMenu({ email }: { email: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const logout = async () => {
    try {
      await accountApi.logout();
      queryClient.clear();
      navigate('/login', { replace: true });
    } catch (err) {
      setError(err);
    }
  };
  return (
    <div className="user-menu">
      <Link className="user-email" title={`${email}: your account`} to="/account">
        {email}
      </Link>
      <Button className="btn-small" onClick={logout}>
        Log out
      </Button>
      <ErrorMessage error={error} title="Could not log out" />
    </div>
  );
}

/** Signed-in frame of a project: navigation, project switcher, account banners. */
export default function AppLayout() {
  const projectId = useProjectId();
  const me = useMe();
  const project = useProject(projectId);
  useEffect(() => {
    if (project.isSuccess) rememberProject(projectId);
  }, [project.isSuccess, projectId]);

  if (project.isPending) return <Loading label="Opening the project…" />;
  if (project.isError) {
    const missing = project.error instanceof ApiError && project.error.status === 404;
    return (
      <main className="centered-page">
        <h1>{missing ? 'Project not found' : 'Could not open the project'}</h1>
        {missing ? <p>It does not exist, or you are not a member of it.</p> : <ErrorMessage error={project.error} />}
        <p>
          <Link to="/">Go to your projects</Link>
        </p>
      </main>
    );
  }
  const p = project.data;
  return (
    <div className="app-layout">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <aside className="sidebar">
        <p className="brand">Mailroom</p>
        <ProjectSwitcher projectId={projectId} name={p.name} />
        <nav aria-label="Sections">
          <ul>
            {SECTIONS.map((s) => (
              <li key={s.path}>
                <NavLink to={projectPath(projectId, ...(s.path ? [s.path] : []))} end={s.path === ''}>
                  {s.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        {me.data && <UserMenu email={me.data.email} />}
      </aside>
      <div className="content">
        {me.data && !me.data.emailVerified && <VerifyBanner email={me.data.email} />}
        {p.disabled && (
          <div className="banner banner-bad" role="alert">
            This project is disabled{p.disabledReason ? ` (${p.disabledReason})` : ''}: it cannot send. See <Link to={projectPath(projectId, 'settings', 'security')}>Security</Link>.
          </div>
        )}
        <main id="main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
      <Toasts />
    </div>
  );
}
