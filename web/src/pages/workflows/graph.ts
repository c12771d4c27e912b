/**
 * Workflow graph ↔ API: steps become nodes, transitions edges; a drag from a node's output
 * handle to another node becomes a `POST /workflows/:id/transitions` body. Plain functions,
 * tested in graph.test.ts (no React, no @xyflow here).
 */
import type { StepType, TransitionBody, Workflow, WorkflowStep, WorkflowTransition } from '../../api/workflows';

export interface NodeModel {
  id: string;
  position: { x: number; y: number };
  data: { step: WorkflowStep; handles: HandleSpec[] };
}
export interface EdgeModel {
  id: string;
  source: string;
  target: string;
  sourceHandle: string;
  label?: string;
}
export interface HandleSpec {
  id: string;
  label?: string;
}

export const STEP_TYPES: { type: Exclude<StepType, 'TRIGGER'>; label: string; help: string }[] = [
  { type: 'SEND_EMAIL', label: 'Send email', help: 'Sends a template to the contact.' },
  { type: 'DELAY', label: 'Delay', help: 'Waits a number of minutes, hours or days.' },
  { type: 'WAIT_FOR_EVENT', label: 'Wait for event', help: 'Waits until the contact triggers an event, or a timeout.' },
  { type: 'CONDITION', label: 'Condition', help: 'Goes on along "yes" or "no".' },
  { type: 'UPDATE_CONTACT', label: 'Update contact', help: 'Changes data or the subscription.' },
  { type: 'WEBHOOK', label: 'Webhook', help: 'Calls a URL of yours.' },
  { type: 'EXIT', label: 'Exit', help: 'Ends the execution.' },
];

export const stepLabel = (type: StepType) => (type === 'TRIGGER' ? 'Trigger' : (STEP_TYPES.find((s) => s.type === type)?.label ?? type));

/** The output handles of a step: one per branch / outcome, none for EXIT. */
export function handlesOf(type: StepType): HandleSpec[] {
  if (type === 'CONDITION') return [{ id: 'yes', label: 'yes' }, { id: 'no', label: 'no' }];
  if (type === 'WAIT_FOR_EVENT') return [{ id: 'EVENT', label: 'event' }, { id: 'TIMEOUT', label: 'timeout' }];
  if (type === 'EXIT') return [];
  return [{ id: 'next' }];
}

export function defaultConfig(type: StepType): WorkflowStep['config'] {
  switch (type) {
    case 'DELAY':
      return { amount: 1, unit: 'days' };
    case 'WAIT_FOR_EVENT':
      return { eventName: '', timeout: 86400 };
    case 'CONDITION':
      return { field: 'contact.subscribed', operator: 'equals', value: true };
    case 'WEBHOOK':
      return { url: 'https://example.com/hook', method: 'POST' };
    case 'UPDATE_CONTACT':
      return { subscriptionAction: 'none', updates: {} };
    case 'EXIT':
      return {};
    default:
      return {};
  }
}

/** Where a step without a stored position goes: a column, in the order the API lists them. */
export const defaultPosition = (index: number) => ({ x: 80, y: 40 + index * 140 });

/** A position below every existing node, for a new step. */
export function nextPosition(steps: WorkflowStep[]): { x: number; y: number } {
  const ys = steps.map((s, i) => (isPoint(s.position) ? s.position : defaultPosition(i)).y);
  return { x: 80, y: (ys.length ? Math.max(...ys) : -100) + 140 };
}

/** Where a step is drawn: its stored position, or its place in the default column. */
export function positionOf(steps: WorkflowStep[], id: string): { x: number; y: number } | null {
  const i = steps.findIndex((s) => s.id === id);
  if (i < 0) return null;
  const p = steps[i].position;
  return isPoint(p) ? p : defaultPosition(i);
}

/** Node footprint used to keep a new step off the ones already drawn. */
const NODE_W = 220;
const NODE_H = 110;

/**
 * Where a step added after `anchor` (along its output `handle`) goes: one row below it, under
 * that handle (a branch's second output a column to the right), moved down until it overlaps no
 * node already drawn. Without an anchor: below every node.
 */
export function placeAfter(steps: WorkflowStep[], anchor: { stepId: string; handle: string } | null): { x: number; y: number } {
  const from = anchor ? positionOf(steps, anchor.stepId) : null;
  if (!anchor || !from) return nextPosition(steps);
  const type = steps.find((s) => s.id === anchor.stepId)!.type;
  const handles = handlesOf(type);
  const k = Math.max(0, handles.findIndex((h) => h.id === anchor.handle));
  const spread = handles.length > 1 ? (k - (handles.length - 1) / 2) * (NODE_W + 40) : 0;
  const at = { x: Math.round(from.x + spread), y: from.y + 140 };
  const taken = steps.map((s, i) => (isPoint(s.position) ? s.position : defaultPosition(i)));
  while (taken.some((p) => Math.abs(p.x - at.x) < NODE_W && Math.abs(p.y - at.y) < NODE_H)) at.y += 140;
  return at;
}

/** The steps from which `stepId` can be reached (itself excluded unless it is on a loop). */
export function ancestorsOf(stepId: string, transitions: Pick<WorkflowTransition, 'fromStepId' | 'toStepId'>[]): Set<string> {
  const seen = new Set<string>();
  const todo = [stepId];
  while (todo.length) {
    const at = todo.pop()!;
    for (const t of transitions) {
      if (t.toStepId === at && !seen.has(t.fromStepId)) {
        seen.add(t.fromStepId);
        todo.push(t.fromStepId);
      }
    }
  }
  return seen;
}

/**
 * The steps the "next step" picker offers from `step`: never itself, the trigger, or a step that
 * leads to it (that arrow would close a loop). Loops are allowed by the API (an execution stops
 * after 1,000 steps) and can still be drawn by dragging; the picker does not suggest them.
 */
export function nextStepChoices(step: WorkflowStep, workflow: Pick<Workflow, 'steps' | 'transitions'>): WorkflowStep[] {
  const before = ancestorsOf(step.id, workflow.transitions);
  return workflow.steps.filter((s) => s.id !== step.id && s.type !== 'TRIGGER' && !before.has(s.id));
}

/** A free output of a step that a new step can follow, as the "after" picker offers it. */
export interface Anchor {
  stepId: string;
  handle: string;
  label: string;
}

/** Every free output of the workflow's steps, in the steps' order, named for the "after" picker. */
export function anchorsOf(workflow: Pick<Workflow, 'steps' | 'transitions'>, names: { templates?: Record<string, string> } = {}): Anchor[] {
  return workflow.steps.flatMap((s) =>
    freeHandles(s, workflow.transitions).map((h) => ({ stepId: s.id, handle: h.id, label: `${stepTitle(s, names)}${h.label ? ` (${h.label})` : ''}` })),
  );
}

/** Which free output a new step follows by default: the selected step's first, else the last step's that has one. */
export function defaultAnchor(anchors: Anchor[], selectedId: string | null): Anchor | null {
  return anchors.find((a) => a.stepId === selectedId) ?? anchors.at(-1) ?? null;
}

/** A step as a person reads it: its name, or its type and what it does. */
export function stepTitle(step: WorkflowStep, names: { templates?: Record<string, string> } = {}): string {
  return step.name && step.name !== stepLabel(step.type) ? step.name : `${stepLabel(step.type)}: ${summarize(step, names)}`;
}

export function transitionHandle(t: Pick<WorkflowTransition, 'branch' | 'waitOutcome'>): string {
  return t.branch ?? t.waitOutcome ?? 'next';
}

export function toFlow(workflow: Pick<Workflow, 'steps' | 'transitions'>): { nodes: NodeModel[]; edges: EdgeModel[] } {
  const nodes = workflow.steps.map((step, i) => ({
    id: step.id,
    position: isPoint(step.position) ? step.position : defaultPosition(i),
    data: { step, handles: handlesOf(step.type) },
  }));
  const edges = workflow.transitions.map((t) => {
    const handle = transitionHandle(t);
    const label = t.branch ?? (t.waitOutcome ? t.waitOutcome.toLowerCase() : undefined);
    return { id: t.id, source: t.fromStepId, target: t.toStepId, sourceHandle: handle, ...(label ? { label } : {}) };
  });
  return { nodes, edges };
}

function isPoint(p: unknown): p is { x: number; y: number } {
  return typeof p === 'object' && p !== null && Number.isFinite((p as { x: unknown }).x) && Number.isFinite((p as { y: unknown }).y);
}

/**
 * The transition a connection asks for, or why it cannot be made (shown to the user instead of
 * sending a request the API would refuse).
 */
export function connectionToTransition(
  connection: { source: string | null; target: string | null; sourceHandle?: string | null },
  workflow: Pick<Workflow, 'steps' | 'transitions'>,
): { body: TransitionBody } | { error: string } {
  const from = workflow.steps.find((s) => s.id === connection.source);
  const to = workflow.steps.find((s) => s.id === connection.target);
  if (!from || !to) return { error: 'Connect two steps of this workflow.' };
  if (from.id === to.id) return { error: 'A step cannot lead to itself.' };
  if (to.type === 'TRIGGER') return { error: 'Nothing can lead back to the trigger.' };
  const handles = handlesOf(from.type);
  if (handles.length === 0) return { error: 'An exit step ends the execution: it has no next step.' };
  const handle = connection.sourceHandle ?? (handles.length === 1 ? handles[0].id : null);
  if (!handle || !handles.some((h) => h.id === handle)) return { error: `Choose which branch of "${from.name ?? stepLabel(from.type)}": ${handles.map((h) => h.label ?? h.id).join(' or ')}.` };
  const taken = workflow.transitions.find((t) => t.fromStepId === from.id && transitionHandle(t) === handle);
  if (taken) return { error: handles.length > 1 ? `The "${handle.toLowerCase()}" branch is already connected: delete that arrow first.` : 'This step already has a next step: delete that arrow first.' };
  const body: TransitionBody = { fromStepId: from.id, toStepId: to.id };
  if (from.type === 'CONDITION') body.branch = handle as 'yes' | 'no';
  if (from.type === 'WAIT_FOR_EVENT') body.waitOutcome = handle as 'EVENT' | 'TIMEOUT';
  return { body };
}

/** The output handles of a step that are not connected yet (the "connect" control offers these). */
export function freeHandles(step: WorkflowStep, transitions: WorkflowTransition[]): HandleSpec[] {
  return handlesOf(step.type).filter((h) => !transitions.some((t) => t.fromStepId === step.id && transitionHandle(t) === h.id));
}

/** One line describing a step's config, for the node. */
export function summarize(step: WorkflowStep, names: { templates?: Record<string, string> } = {}): string {
  const c: Record<string, unknown> = step.config;
  switch (step.type) {
    case 'TRIGGER':
      return `when ${String(c.eventName ?? '?')} happens`;
    case 'SEND_EMAIL':
      return c.templateId ? `template ${names.templates?.[String(c.templateId)] ?? String(c.templateId).slice(0, 8)}` : 'no template chosen';
    case 'DELAY':
      return `${String(c.amount ?? '?')} ${String(c.unit ?? '')}`;
    case 'WAIT_FOR_EVENT':
      return `${String(c.eventName || '?')}${c.timeout ? `, timeout ${String(c.timeout)} s` : ''}`;
    case 'CONDITION':
      return `${String(c.field ?? '?')} ${String(c.operator ?? '')} ${c.value === undefined ? '' : JSON.stringify(c.value)}`.trim();
    case 'WEBHOOK':
      return `${String(c.method ?? 'POST')} ${String(c.url ?? '')}`;
    case 'UPDATE_CONTACT': {
      const keys = Object.keys((c.updates as object) ?? {});
      const sub = c.subscriptionAction && c.subscriptionAction !== 'none' ? String(c.subscriptionAction) : '';
      return [keys.length ? `set ${keys.join(', ')}` : '', sub].filter(Boolean).join('; ') || 'nothing';
    }
    case 'EXIT':
      return c.reason ? String(c.reason) : 'end';
  }
}
