import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useProject } from '../../api/account';
import { data } from '../../api/client';
import { qk } from '../../api/queryKeys';
import type { SetupState } from '../../api/types';
import { Badge, PageHeader } from '../../components/Feedback';
import { QueryView } from '../../components/QueryView';
import { projectPath, useApi, useProjectId } from '../../lib/project';

const STEPS: { key: keyof SetupState; title: string; text: string; to: string[]; action: string }[] = [
  { key: 'hasDomain', title: 'Add a sending domain', text: 'Emails go out from an address at your own domain.', to: ['domains'], action: 'Add a domain' },
  { key: 'hasVerifiedDomain', title: 'Verify the domain', text: 'Publish the DNS records we give you, then check them.', to: ['domains'], action: 'Check DNS records' },
  { key: 'hasTemplates', title: 'Create a template', text: 'A reusable subject and body with {{variables}}.', to: ['templates', 'new'], action: 'New template' },
  { key: 'hasContacts', title: 'Add contacts', text: 'Import a CSV file, or let /v1/send and /v1/track create them.', to: ['contacts', 'import'], action: 'Import contacts' },
  { key: 'hasSentEmail', title: 'Send an email', text: 'Send a test from a template, or call POST /v1/send with your secret key.', to: ['templates'], action: 'Open templates' },
  { key: 'hasTeamMembers', title: 'Invite your team', text: 'Members see and change everything in this project.', to: ['settings', 'members'], action: 'Manage members' },
];

export default function OverviewPage() {
  const projectId = useProjectId();
  const api = useApi();
  const project = useProject(projectId);
  const setup = useQuery({ queryKey: qk.p(projectId, 'setup-state'), queryFn: () => data(api.GET('/projects/{id}/setup-state', { params: { path: { id: projectId } } })) });
  return (
    <>
      <PageHeader title={project.data?.name ?? 'Overview'} description="Getting this project ready to send." />
      <QueryView query={setup} title="Could not load the set-up state">
        {(state) => (
          <ol className="checklist">
            {STEPS.map((step) => (
              <li key={step.key} className={state[step.key] ? 'checklist-done' : undefined}>
                <div>
                  <h2>{step.title}</h2>
                  <p>{step.text}</p>
                </div>
                {state[step.key] ? (
                  <Badge tone="good">Done</Badge>
                ) : (
                  <Link className="btn btn-secondary" to={projectPath(projectId, ...step.to)}>
                    {step.action}
                  </Link>
                )}
              </li>
            ))}
          </ol>
        )}
      </QueryView>
    </>
  );
}
