import type { StepType } from '../entities/workflow-step.entity';
import type { Branch, WaitOutcome } from '../entities/workflow-transition.entity';

export interface GraphStep {
  id: string;
  type: StepType;
  name: string | null;
  config: Record<string, unknown>;
}

export interface GraphTransition {
  from: string;
  to: string;
  branch: Branch | null;
  waitOutcome: WaitOutcome | null;
}

/** A workflow's steps and transitions as one version of it stands (what executions follow). */
export interface WorkflowGraph {
  steps: GraphStep[];
  transitions: GraphTransition[];
}

/** Which edge a step leaves by: CONDITION by branch, WAIT_FOR_EVENT by outcome, others by their one transition. */
export type Exit = { branch: Branch } | { waitOutcome: WaitOutcome } | null;

/** The step after `stepId` leaving by `exit`, or null (the execution completes). */
export function nextStepId(graph: WorkflowGraph, stepId: string, exit: Exit): string | null {
  const edge = graph.transitions.find(
    (t) =>
      t.from === stepId &&
      (exit === null || ('branch' in exit ? t.branch === exit.branch : t.waitOutcome === exit.waitOutcome)),
  );
  return edge?.to ?? null;
}

export function stepOf(graph: WorkflowGraph, stepId: string | null): GraphStep | undefined {
  return stepId === null ? undefined : graph.steps.find((s) => s.id === stepId);
}

export interface TransitionInput {
  fromType: StepType;
  toType: StepType;
  branch?: string | null;
  waitOutcome?: string | null;
}

/**
 * The branch rules of docs/decisions.md#workflows for a new transition: CONDITION needs `branch` yes|no,
 * WAIT_FOR_EVENT needs `waitOutcome` EVENT|TIMEOUT, other steps take neither; nothing leads
 * into the TRIGGER step, and EXIT has no way out. Returns the 422 problems (empty when fine).
 */
export function transitionProblems(input: TransitionInput): Array<{ field: string; code: string; message: string }> {
  const problems: Array<{ field: string; code: string; message: string }> = [];
  const { fromType, toType, branch, waitOutcome } = input;
  if (toType === 'TRIGGER') problems.push({ field: 'toStepId', code: 'invalid_transition', message: 'no transition may lead into the TRIGGER step' });
  if (fromType === 'EXIT') problems.push({ field: 'fromStepId', code: 'invalid_transition', message: 'an EXIT step has no outgoing transition' });
  if (fromType === 'CONDITION') {
    if (branch !== 'yes' && branch !== 'no') problems.push({ field: 'branch', code: 'required', message: 'a transition from a CONDITION step needs branch "yes" or "no"' });
  } else if (branch !== undefined && branch !== null) {
    problems.push({ field: 'branch', code: 'invalid_transition', message: 'branch is only for transitions from a CONDITION step' });
  }
  if (fromType === 'WAIT_FOR_EVENT') {
    if (waitOutcome !== 'EVENT' && waitOutcome !== 'TIMEOUT')
      problems.push({ field: 'waitOutcome', code: 'required', message: 'a transition from a WAIT_FOR_EVENT step needs waitOutcome "EVENT" or "TIMEOUT"' });
  } else if (waitOutcome !== undefined && waitOutcome !== null) {
    problems.push({ field: 'waitOutcome', code: 'invalid_transition', message: 'waitOutcome is only for transitions from a WAIT_FOR_EVENT step' });
  }
  return problems;
}

/** Whether an existing transition already occupies the slot a new one would take (409). */
export function slotTaken(existing: Array<{ branch: string | null; waitOutcome: string | null }>, fromType: StepType, branch?: string | null, waitOutcome?: string | null): boolean {
  if (fromType === 'CONDITION') return existing.some((t) => t.branch === branch);
  if (fromType === 'WAIT_FOR_EVENT') return existing.some((t) => t.waitOutcome === waitOutcome);
  return existing.length > 0;
}

/**
 * Splice delete: the step's predecessors are linked to its single successor (each keeping its
 * own branch/outcome). A step with several successors cannot be spliced (null).
 */
export function spliceTransitions(transitions: GraphTransition[], stepId: string): GraphTransition[] | null {
  const out = transitions.filter((t) => t.from === stepId);
  if (out.length > 1) return null;
  const successor = out[0]?.to;
  if (successor === undefined || successor === stepId) return [];
  return transitions.filter((t) => t.to === stepId && t.from !== stepId).map((t) => ({ ...t, to: successor }));
}
