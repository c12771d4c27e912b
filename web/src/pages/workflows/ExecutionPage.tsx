import { Link, useParams } from 'react-router';
import { useExecution, useWorkflow } from '../../api/workflows';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Badge, Loading, PageHeader } from '../../components/Feedback';
import { formatDate, formatValue } from '../../lib/format';
import { projectPath, useProjectId } from '../../lib/project';
import { stepLabel } from './graph';
import { executionTone } from './WorkflowPage';

export default function ExecutionPage() {
  const { workflowId = '', executionId = '' } = useParams();
  const projectId = useProjectId();
  const workflow = useWorkflow(workflowId);
  const execution = useExecution(workflowId, executionId);
  if (execution.isPending) return <Loading label="Loading the execution…" />;
  if (execution.isError) return <ErrorMessage error={execution.error} title="Could not load the execution" />;
  const x = execution.data;
  const stepName = (id: string) => {
    const s = workflow.data?.steps.find((st) => st.id === id);
    return s ? (s.name ?? stepLabel(s.type)) : id;
  };
  return (
    <>
      <PageHeader
        title={`Execution of ${workflow.data?.name ?? 'the workflow'}`}
        description={
          <>
            <Badge tone={executionTone(x.status)}>{x.status.toLowerCase()}</Badge> for contact <Link to={projectPath(projectId, 'contacts', x.contactId)}>{x.contactId}</Link>, started {formatDate(x.startedAt)}
            {x.completedAt && `, ended ${formatDate(x.completedAt)}`}
            {x.exitReason && ` (${x.exitReason})`}
          </>
        }
        actions={
          <Link className="btn" to={projectPath(projectId, 'workflows', workflowId, 'executions')}>
            All executions
          </Link>
        }
      />
      <div className="table-wrap">
        <table>
          <caption>Step history</caption>
          <thead>
            <tr>
              <th scope="col">Step</th>
              <th scope="col">Status</th>
              <th scope="col">Started</th>
              <th scope="col">Ended</th>
              <th scope="col">Output or error</th>
            </tr>
          </thead>
          <tbody>
            {(x.steps ?? []).length === 0 && (
              <tr>
                <td colSpan={5} className="muted">
                  No step has run yet{x.status === 'RUNNING' ? ': the first one is being worked on (this page updates by itself).' : '.'}
                </td>
              </tr>
            )}
            {(x.steps ?? []).map((s, i) => (
              <tr key={`${s.stepId}:${i}`}>
                <td>
                  {stepName(s.stepId)} <span className="muted">{stepLabel(s.type)}</span>
                </td>
                <td>{s.status.toLowerCase()}</td>
                <td>{formatDate(s.startedAt)}</td>
                <td>{s.completedAt ? formatDate(s.completedAt) : '—'}</td>
                <td>{s.error ? <span className="field-error">{s.error}</span> : s.output ? <code>{formatValue(s.output)}</code> : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {x.context && Object.keys(x.context).length > 0 && (
        <section className="panel">
          <h2>Context</h2>
          <pre className="code-block">{JSON.stringify(x.context, null, 2)}</pre>
        </section>
      )}
    </>
  );
}
