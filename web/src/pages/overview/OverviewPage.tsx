import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useProject } from '../../api/account';
import { useActivityStats, useUpcoming } from '../../api/activity';
import { data } from '../../api/client';
import { qk } from '../../api/queryKeys';
import type { SetupState } from '../../api/types';
import { Badge, PageHeader } from '../../components/Feedback';
import { QueryView } from '../../components/QueryView';
import { formatDate, formatNumber, formatPercent } from '../../lib/format';
import { projectPath, useApi, useProjectId } from '../../lib/project';

const STEPS: { key: keyof SetupState; title: string; text: string; to: string[]; action: string }[] = [
  { key: 'hasDomain', title: 'Add a sending domain', text: 'Emails go out from an address at your own domain.', to: ['domains'], action: 'Add a domain' },
  { key: 'hasVerifiedDomain', title: 'Verify the domain', text: 'Publish the DNS records we give you, then check them.', to: ['domains'], action: 'Check DNS records' },
  { key: 'hasTemplates', title: 'Create a template', text: 'A reusable subject and body with {{variables}}.', to: ['templates', 'new'], action: 'New template' },
  { key: 'hasContacts', title: 'Add contacts', text: 'Import a CSV file, or let /v1/send and /v1/track create them.', to: ['contacts', 'import'], action: 'Import contacts' },
  { key: 'hasSentEmail', title: 'Send an email', text: 'Send a test from a template, or call POST /v1/send with your secret key.', to: ['templates'], action: 'Open templates' },
  { key: 'hasCampaigns', title: 'Write a campaign', text: 'One email to everyone, a segment, or contacts matching filters.', to: ['campaigns', 'new'], action: 'New campaign' },
  { key: 'hasWorkflows', title: 'Automate with a workflow', text: 'Emails that follow what your users do: a welcome series, a reminder.', to: ['workflows'], action: 'Open workflows' },
  { key: 'hasTeamMembers', title: 'Invite your team', text: 'Members see and change everything in this project.', to: ['settings', 'members'], action: 'Manage members' },
];

/** The project's overview: the set-up checklist until it can send (`completed`), then its numbers. */
export default function OverviewPage() {
  const projectId = useProjectId();
  const api = useApi();
  const project = useProject(projectId);
  const setup = useQuery({ queryKey: qk.p(projectId, 'setup-state'), queryFn: () => data(api.GET('/projects/{id}/setup-state', { params: { path: { id: projectId } } })) });
  return (
    <>
      <PageHeader title={project.data?.name ?? 'Overview'} description={setup.data?.completed ? 'The last 30 days of this project.' : 'Getting this project ready to send.'} />
      <QueryView query={setup} title="Could not load the set-up state">
        {(state) =>
          state.completed ? (
            <>
              <Numbers />
              <Upcoming />
              {STEPS.some((step) => !state[step.key]) && (
                <details className="panel">
                  <summary>More to set up</summary>
                  <Checklist state={state} onlyOpen />
                </details>
              )}
            </>
          ) : (
            <Checklist state={state} />
          )
        }
      </QueryView>
    </>
  );
}

function Checklist({ state, onlyOpen = false }: { state: SetupState; onlyOpen?: boolean }) {
  const projectId = useProjectId();
  return (
    <ol className="checklist" aria-label="Set-up checklist">
      {STEPS.filter((step) => !onlyOpen || !state[step.key]).map((step) => (
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
  );
}

function Numbers() {
  const projectId = useProjectId();
  const stats = useActivityStats();
  return (
    <section className="panel" aria-labelledby="overview-numbers">
      <h2 id="overview-numbers">Last 30 days</h2>
      <QueryView query={stats} title="Could not load the numbers">
        {(st) => (
          <dl className="stat-grid">
            {(
              [
                ['Sent', formatNumber(st.sent)],
                ['Delivered', formatNumber(st.delivered)],
                ['Opened', formatNumber(st.opened)],
                ['Clicked', formatNumber(st.clicked)],
                ['Open rate', st.sent ? formatPercent(st.opened / st.sent) : '—'],
                ['Bounced', formatNumber(st.bounced)],
                ['Complaints', formatNumber(st.complained)],
                ['Events', formatNumber(st.events)],
              ] as const
            ).map(([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        )}
      </QueryView>
      <p>
        <Link to={projectPath(projectId, 'analytics')}>Charts in Analytics</Link>
      </p>
    </section>
  );
}

function Upcoming() {
  const projectId = useProjectId();
  const upcoming = useUpcoming();
  const campaigns = upcoming.data?.campaigns ?? [];
  if (campaigns.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="overview-upcoming">
      <h2 id="overview-upcoming">Scheduled campaigns</h2>
      <ul>
        {campaigns.map((c) => (
          <li key={c.id}>
            <Link to={projectPath(projectId, 'campaigns', c.id)}>{c.name}</Link> — {formatDate(c.scheduledFor)}
          </li>
        ))}
      </ul>
    </section>
  );
}
