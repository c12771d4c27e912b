import { ACTIVE, type Execution, type ExecutionStatus, type ExecutionStep, type Workflow } from '../../api/workflows';
import { formatDate } from '../../lib/format';
import { stepLabel } from './graph';

export const executionTone = (s: ExecutionStatus) => (s === 'COMPLETED' ? 'good' : s === 'FAILED' ? 'bad' : ACTIVE.includes(s) ? 'info' : 'neutral');

/** A step of the workflow by id, named as a person reads it; a step deleted since the execution started says so. */
export function stepNameOf(workflow: Workflow | undefined, id: string | null, type?: ExecutionStep['type']): string {
  const s = id ? workflow?.steps.find((st) => st.id === id) : undefined;
  if (s) return s.name && s.name !== stepLabel(s.type) ? s.name : stepLabel(s.type);
  return type ? `${stepLabel(type)} (since removed)` : id ? 'a removed step' : '—';
}

/** Until when a WAITING execution waits, in the user's zone (named), or for which event. */
export function WaitingNote({ execution: x }: { execution: Pick<Execution, 'status' | 'waitingUntil' | 'waitingFor'> }) {
  if (x.status !== 'WAITING') return null;
  if (x.waitingUntil && x.waitingFor)
    return (
      <span className="wf-waiting">
        waiting for <code>{x.waitingFor}</code> until <time dateTime={x.waitingUntil}>{formatDate(x.waitingUntil)}</time>
      </span>
    );
  if (x.waitingUntil)
    return (
      <span className="wf-waiting">
        waiting until <time dateTime={x.waitingUntil}>{formatDate(x.waitingUntil)}</time>
      </span>
    );
  if (x.waitingFor)
    return (
      <span className="wf-waiting">
        waiting for <code>{x.waitingFor}</code> (no timeout)
      </span>
    );
  return <span className="wf-waiting">waiting</span>;
}
