import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { useTemplateList } from '../../api/templates';
import { type Execution, type ExecutionStep, useExecution, useWorkflow, type Workflow } from '../../api/workflows';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Badge, Loading, PageHeader } from '../../components/Feedback';
import { formatDate, formatValue } from '../../lib/format';
import { projectPath, useProjectId } from '../../lib/project';
import { stepLabel } from './graph';
import { executionTone, stepNameOf, WaitingNote } from './executionParts';

const stepTone = (s: ExecutionStep['status']) => (s === 'COMPLETED' ? 'good' : s === 'FAILED' ? 'bad' : s === 'WAITING' ? 'info' : 'neutral');

export default function ExecutionPage() {
  const { workflowId = '', executionId = '' } = useParams();
  const projectId = useProjectId();
  const workflow = useWorkflow(workflowId);
  const execution = useExecution(workflowId, executionId);
  if (execution.isPending) return <Loading label="Loading the execution…" />;
  if (execution.isError) return <ErrorMessage error={execution.error} title="Could not load the execution" />;
  const x = execution.data;
  const steps = x.steps ?? [];
  const contactLink = <Link to={projectPath(projectId, 'contacts', x.contactId)}>{x.contactEmail ?? 'the contact'}</Link>;
  return (
    <>
      <PageHeader
        title={`Execution of ${workflow.data?.name ?? 'the workflow'}`}
        description={
          <>
            <Badge tone={executionTone(x.status)}>{x.status.toLowerCase()}</Badge> for {contactLink}, started {formatDate(x.startedAt)}
            {x.completedAt && `, ended ${formatDate(x.completedAt)}`}
            {x.exitReason && ` (${x.exitReason})`}
            {x.status === 'WAITING' && (
              <>
                {' '}
                at {stepNameOf(workflow.data, x.currentStepId)}, <WaitingNote execution={x} />
              </>
            )}
          </>
        }
        actions={
          <Link className="btn" to={projectPath(projectId, 'workflows', workflowId, 'executions')}>
            All executions
          </Link>
        }
      />
      <section aria-labelledby="wf-timeline-heading">
        <h2 id="wf-timeline-heading">Steps</h2>
        {steps.length === 0 ? (
          <p className="muted">No step has run yet{x.status === 'RUNNING' ? ': the first one is being worked on (this page updates by itself).' : '.'}</p>
        ) : (
          <ol className="wf-timeline" aria-label="Step history">
            {steps.map((s, i) => (
              <TimelineStep key={`${s.stepId}:${i}`} record={s} execution={x} workflow={workflow.data} />
            ))}
          </ol>
        )}
      </section>
      {Object.keys(x.context ?? {}).length > 0 && (
        <section className="panel" aria-labelledby="wf-context-heading">
          <h2 id="wf-context-heading">Variables</h2>
          <p className="muted">
            What this run carries as <code>{'{{workflow.<key>}}'}</code> in conditions and templates.
          </p>
          <dl className="wf-variables">
            {Object.entries(x.context).map(([k, v]) => (
              <div key={k}>
                <dt>
                  <code>{k}</code>
                </dt>
                <dd>{formatValue(v)}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}
    </>
  );
}

function TimelineStep({ record: s, execution: x, workflow }: { record: ExecutionStep; execution: Execution; workflow: Workflow | undefined }) {
  const projectId = useProjectId();
  const templates = useTemplateList({ page: 1, sort: 'updatedAt', dir: 'desc' });
  const out = (s.output ?? {}) as Record<string, unknown>;
  const title = stepNameOf(workflow, s.stepId, s.type);
  const rows: Array<[string, ReactNode]> = [['Started', formatDate(s.startedAt)]];
  if (s.completedAt) rows.push(['Ended', formatDate(s.completedAt)]);
  switch (s.type) {
    case 'TRIGGER':
      rows.push(['Started by', out.eventName ? <>the event <code>{String(out.eventName)}</code></> : 'a manual start']);
      break;
    case 'SEND_EMAIL': {
      if (out.skipped) rows.push(['Not sent', out.skipped === 'unsubscribed' ? 'the contact is unsubscribed (a marketing template)' : String(out.skipped)]);
      if (s.email) {
        rows.push(['Email', <>“{s.email.subject ?? '(subject not rendered yet)'}” <Badge tone={s.email.status === 'delivered' || s.email.status === 'sent' ? 'good' : s.email.status === 'bounced' || s.email.status === 'failed' ? 'bad' : 'neutral'}>{s.email.status}</Badge></>]);
        rows.push(['Sent to', <Link to={projectPath(projectId, 'contacts', x.contactId)}>{x.contactEmail ?? 'the contact'}</Link>]);
      }
      const templateId = typeof out.templateId === 'string' ? out.templateId : undefined;
      if (templateId) rows.push(['Template', <Link to={projectPath(projectId, 'templates', templateId)}>{templates.data?.data.find((t) => t.id === templateId)?.name ?? 'open the template'}</Link>]);
      break;
    }
    case 'CONDITION':
      if (out.result !== undefined) rows.push(['Result', out.result ? 'yes' : 'no']);
      break;
    case 'DELAY':
    case 'WAIT_FOR_EVENT':
      if (s.status === 'WAITING' && x.status === 'WAITING') rows.push(['Now', <WaitingNote execution={x} />]);
      if (out.outcome) rows.push(['Went on', out.outcome === 'EVENT' ? 'the event came' : 'the timeout passed']);
      else if (out.resumedAt) rows.push(['Went on', formatDate(String(out.resumedAt))]);
      break;
    case 'WEBHOOK':
      if (out.status !== undefined) rows.push(['Answer', `HTTP ${String(out.status)}`]);
      if (out.attempts !== undefined) rows.push(['Attempts', String(out.attempts)]);
      break;
    case 'UPDATE_CONTACT':
      if (Array.isArray(out.updated) && out.updated.length) rows.push(['Data set', out.updated.map(String).join(', ')]);
      else if (out.updated && typeof out.updated === 'object') rows.push(['Data set', Object.keys(out.updated).join(', ') || 'nothing']);
      if (out.subscribed !== undefined) rows.push(['Subscribed', out.subscribed ? 'yes' : 'no']);
      break;
    case 'EXIT':
      if (x.exitReason) rows.push(['Reason', x.exitReason]);
      break;
  }
  return (
    <li>
      <div className="wf-timeline-head">
        <h3>{title}</h3>
        {title !== stepLabel(s.type) && <span className="muted">{stepLabel(s.type)}</span>}
        <Badge tone={stepTone(s.status)}>{s.status.toLowerCase()}</Badge>
      </div>
      <dl>
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      {s.error && <p className="field-error">{s.error}</p>}
      {s.output !== null && s.output !== undefined && (
        <details>
          <summary>Raw output</summary>
          <pre className="code-block">{JSON.stringify(s.output, null, 2)}</pre>
        </details>
      )}
    </li>
  );
}
