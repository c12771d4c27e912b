import '@xyflow/react/dist/style.css';
import { useQueryClient } from '@tanstack/react-query';
import { Background, type Connection, Controls, type Edge, Handle, MarkerType, type Node, type NodeChange, type NodeProps, Position, ReactFlow, type ReactFlowInstance } from '@xyflow/react';
import { useMemo, useRef, useState } from 'react';
import { data } from '../../api/client';
import { qk } from '../../api/queryKeys';
import { useTemplateList } from '../../api/templates';
import { type StepType, type TransitionBody, useStepCounts, type Workflow, type WorkflowStep } from '../../api/workflows';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { SelectField } from '../../components/Fields';
import { useApiMutation } from '../../lib/forms';
import { useApi, useProjectId } from '../../lib/project';
import { anchorsOf, connectionToTransition, defaultAnchor, defaultConfig, freeHandles, type HandleSpec, nextStepChoices, placeAfter, STEP_TYPES, stepLabel, stepTitle, summarize, toFlow } from './graph';
import { StepConfigForm } from './StepConfigForm';

type StepNodeData = { step: WorkflowStep; handles: HandleSpec[]; summary: string; selected: boolean; count?: { running: number; waiting: number } };
type StepNode = Node<StepNodeData, 'step'>;

function StepNodeView({ data }: NodeProps<StepNode>) {
  const { step, handles, summary, count } = data;
  const here = count ? count.running + count.waiting : 0;
  return (
    <div className={`wf-node wf-node-${step.type.toLowerCase()}`} data-testid={`step-${step.id}`} aria-label={`Step ${step.name ?? stepLabel(step.type)}`}>
      {step.type !== 'TRIGGER' && <Handle type="target" position={Position.Top} />}
      <div className="wf-node-type">{stepLabel(step.type)}</div>
      {step.name && step.name !== stepLabel(step.type) && <div className="wf-node-name">{step.name}</div>}
      <div className="wf-node-summary">{summary}</div>
      {here > 0 && (
        <div className="wf-node-count" title="Executions at this step now">
          {here} here{count!.waiting > 0 && count!.waiting < here ? ` (${count!.waiting} waiting)` : count!.waiting === here ? ' waiting' : ''}
        </div>
      )}
      <div className="wf-node-handles">
        {handles.map((h, i) => (
          <Handle key={h.id} id={h.id} type="source" position={Position.Bottom} style={{ left: `${((i + 1) * 100) / (handles.length + 1)}%` }} title={h.label ? `${h.label}: drag to the next step` : 'Drag to the next step'}>
            {h.label && <span className="wf-handle-label">{h.label}</span>}
          </Handle>
        ))}
      </div>
    </div>
  );
}

const NODE_TYPES = { step: StepNodeView };

export default function WorkflowEditor({ workflow }: { workflow: Workflow }) {
  const api = useApi();
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'workflows', 'one', workflow.id) });
  const templates = useTemplateList({ page: 1, sort: 'updatedAt', dir: 'desc' });
  const templateNames = useMemo(() => Object.fromEntries((templates.data?.data ?? []).map((t) => [t.id, t.name])), [templates.data]);
  const counts = useStepCounts(workflow.id);
  const activeCount = (counts.data?.steps ?? []).reduce((n, c) => n + c.running + c.waiting, 0);
  const countOf = useMemo(() => new Map((counts.data?.steps ?? []).map((c) => [c.stepId, { running: c.running, waiting: c.waiting }])), [counts.data]);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [connectError, setConnectError] = useState<string | null>(null);
  const flowRef = useRef<ReactFlowInstance<StepNode, Edge> | null>(null);
  const flow = useMemo(() => toFlow(workflow), [workflow]);
  const derived = useMemo<StepNode[]>(
    () =>
      flow.nodes.map((n) => ({
        ...n,
        type: 'step' as const,
        data: { ...n.data, summary: summarize(n.data.step, { templates: templateNames }), selected: n.id === selectedId, count: countOf.get(n.id) },
        selected: n.id === selectedId,
      })),
    [flow, templateNames, selectedId, countOf],
  );
  // What the canvas changes locally: positions while dragging (until the drop is saved) and measured sizes.
  const [local, setLocal] = useState<Record<string, { position?: { x: number; y: number }; dragging?: boolean; measured?: { width?: number; height?: number } }>>({});
  const nodes = useMemo(() => derived.map((n) => (local[n.id] ? { ...n, ...local[n.id], position: local[n.id].position ?? n.position } : n)), [derived, local]);
  const onNodesChange = (changes: NodeChange<StepNode>[]) => {
    // Selecting with the keyboard (Tab to a step, Enter) selects it as a click does.
    const picked = changes.find((c) => c.type === 'select' && c.selected);
    if (picked && 'id' in picked) setSelectedId(picked.id);
    setLocal((prev) => {
      const next = { ...prev };
      for (const c of changes) {
        if (c.type === 'position' && c.position) next[c.id] = { ...next[c.id], position: c.position, dragging: c.dragging };
        if (c.type === 'dimensions' && c.dimensions) next[c.id] = { ...next[c.id], measured: c.dimensions };
      }
      return next;
    });
  };
  const dropped = (id: string) =>
    setLocal((prev) => {
      const rest = { ...prev[id] };
      delete rest.position;
      delete rest.dragging;
      return { ...prev, [id]: rest };
    });
  const edges: Edge[] = flow.edges.map((e) => ({
    ...e,
    deletable: true,
    markerEnd: { type: MarkerType.ArrowClosed, width: 22, height: 22, color: '#5b6472' },
    ariaLabel: `Arrow from ${stepTitleOf(workflow, e.source)} to ${stepTitleOf(workflow, e.target)}${e.label ? ` (${e.label})` : ''}`,
    className: e.label ? `wf-edge-${e.label}` : undefined,
  }));

  const connect = useApiMutation({ mutationFn: (body: TransitionBody) => data(api.POST('/workflows/{id}/transitions', { params: { path: { id: workflow.id } }, body })), onSuccess: refresh });
  const removeEdge = useApiMutation({ mutationFn: (id: string) => data(api.DELETE('/workflows/{id}/transitions/{transitionId}', { params: { path: { id: workflow.id, transitionId: id } } })), onSuccess: refresh });
  const removeStep = useApiMutation({
    mutationFn: (id: string) => data(api.DELETE('/workflows/{id}/steps/{stepId}', { params: { path: { id: workflow.id, stepId: id }, query: { splice: 'true' } } })),
    onSuccess: () => {
      setSelectedId(null);
      void refresh();
    },
  });
  const move = useApiMutation({
    mutationFn: (v: { id: string; position: { x: number; y: number } }) => data(api.PATCH('/workflows/{id}/steps/{stepId}', { params: { path: { id: workflow.id, stepId: v.id } }, body: { position: v.position } })),
    // The graph is drawn from the cached workflow: keep the dropped position there at once.
    onMutate: (v) =>
      queryClient.setQueryData<Workflow>(qk.p(projectId, 'workflows', 'one', workflow.id), (w) => (w ? { ...w, steps: w.steps.map((s) => (s.id === v.id ? { ...s, position: v.position } : s)) } : w)),
    onError: () => void refresh(),
  });

  const onConnect = (c: Connection) => {
    const r = connectionToTransition(c, workflow);
    if ('error' in r) return setConnectError(r.error);
    setConnectError(null);
    void connect.submit(r.body);
  };
  const selected = workflow.steps.find((s) => s.id === selectedId) ?? null;
  const [newType, setNewType] = useState<StepType>('SEND_EMAIL');
  // Where a new step goes: after the chosen free output (the selected step's by default, else the last step's), or unconnected.
  const anchors = anchorsOf(workflow, { templates: templateNames });
  const [afterKey, setAfterKey] = useState<string | null>(null);
  const keyOf = (a: { stepId: string; handle: string }) => `${a.stepId}:${a.handle}`;
  const fallback = defaultAnchor(anchors, selectedId);
  const after = afterKey === '' ? null : (anchors.find((a) => keyOf(a) === afterKey) ?? fallback);
  const createAt = placeAfter(workflow.steps, after);

  return (
    <div className="wf-editor">
      <div className="wf-canvas" aria-label="Workflow graph" role="region">
        <ReactFlow<StepNode, Edge>
          nodes={nodes}
          edges={edges}
          nodeTypes={NODE_TYPES}
          onInit={(instance) => (flowRef.current = instance)}
          onNodesChange={onNodesChange}
          onNodeDragStop={(_, node) => {
            void move.submit({ id: node.id, position: { x: Math.round(node.position.x), y: Math.round(node.position.y) } });
            dropped(node.id);
          }}
          onNodeClick={(_, node) => setSelectedId(node.id)}
          onPaneClick={() => setSelectedId(null)}
          onConnect={onConnect}
          onEdgesDelete={(es) => es.forEach((e) => void removeEdge.submit(e.id))}
          deleteKeyCode={['Backspace', 'Delete']}
          fitView
          fitViewOptions={{ maxZoom: 1 }}
          proOptions={{ hideAttribution: true }}
        >
          <Background />
          <Controls showInteractive={false} />
        </ReactFlow>
      </div>
      <aside className="wf-side">
        {(connectError || connect.error) && (
          <div role="alert" className="error-message">
            <p>{connectError ?? connect.error?.message}</p>
          </div>
        )}
        <ErrorMessage error={removeEdge.error} title="Could not delete the arrow" />
        <ErrorMessage error={move.error} title="Could not move the step" />
        {activeCount > 0 && (
          <p className="muted">
            {activeCount === 1 ? 'One execution is active' : `${activeCount} executions are active`}: each step shows how many are at it now.
          </p>
        )}
        <section className="panel">
          <h2>Add a step</h2>
          <SelectField label="Step type" value={newType} onChange={(e) => setNewType(e.target.value as StepType)} hint={STEP_TYPES.find((s) => s.type === newType)?.help}>
            {STEP_TYPES.map((s) => (
              <option key={s.type} value={s.type}>
                {s.label}
              </option>
            ))}
          </SelectField>
          <SelectField label="After" value={after ? keyOf(after) : ''} onChange={(e) => setAfterKey(e.target.value)} hint={after ? 'Connected with an arrow from that step, and drawn below it.' : 'Added on its own: connect it later.'}>
            {anchors.map((a) => (
              <option key={keyOf(a)} value={keyOf(a)}>
                {a.label}
              </option>
            ))}
            <option value="">Not connected</option>
          </SelectField>
          <StepConfigForm
            key={newType}
            workflowId={workflow.id}
            step={{ id: '', type: newType, name: null, config: defaultConfig(newType), position: null }}
            createAt={createAt}
            linkNew={(created) => {
              if (!after) return null;
              const r = connectionToTransition({ source: after.stepId, target: created.id, sourceHandle: after.handle }, { steps: [...workflow.steps, created], transitions: workflow.transitions });
              return 'body' in r ? r.body : null;
            }}
            onSaved={(created) => {
              if (created) {
                setSelectedId(created.id);
                setAfterKey(null);
                // Bring the new step into view, at the zoom the user has.
                const rf = flowRef.current;
                if (rf) void rf.setCenter(createAt.x + 110, createAt.y + 40, { zoom: rf.getZoom(), duration: 300 });
              }
              void refresh();
            }}
          />
          <p className="muted">You can also drag from the dot at the bottom of a step to another step. Select an arrow and press Delete to remove it.</p>
        </section>
        <SelectField label="Step to edit" value={selectedId ?? ''} onChange={(e) => setSelectedId(e.target.value || null)}>
          <option value="">None</option>
          {workflow.steps.map((s) => (
            <option key={s.id} value={s.id}>
              {stepTitle(s, { templates: templateNames })}
            </option>
          ))}
        </SelectField>
        {selected ? (
          <section className="panel" aria-label="Selected step">
            <h2>{selected.name ?? stepLabel(selected.type)}</h2>
            <ConnectControl workflow={workflow} step={selected} names={templateNames} onConnect={(body) => void connect.submit(body)} pending={connect.isPending} />
            <StepConfigForm key={selected.id} workflowId={workflow.id} step={selected} onSaved={refresh} />
            {selected.type !== 'TRIGGER' && (
              <div className="button-row">
                <Button variant="danger" onClick={() => void removeStep.submit(selected.id)} pending={removeStep.isPending} pendingLabel="Deleting…">
                  Delete step
                </Button>
                <span className="muted">Its predecessors are linked to its next step.</span>
              </div>
            )}
            <ErrorMessage error={removeStep.error} title="Could not delete the step" />
          </section>
        ) : (
          <p className="muted">Select a step in the graph (or above) to change its settings or connect it.</p>
        )}
      </aside>
    </div>
  );
}

function stepTitleOf(workflow: Workflow, id: string): string {
  const step = workflow.steps.find((s) => s.id === id);
  return step ? stepTitle(step) : 'a step';
}

/** The keyboard way to connect: the selected step's free branch → a later step (never one that would close a loop). */
function ConnectControl({ workflow, step, names, onConnect, pending }: { workflow: Workflow; step: WorkflowStep; names: Record<string, string>; onConnect: (body: TransitionBody) => void; pending: boolean }) {
  const handles = freeHandles(step, workflow.transitions);
  const targets = nextStepChoices(step, workflow);
  const [handle, setHandle] = useState(handles[0]?.id ?? '');
  const [target, setTarget] = useState(targets[0]?.id ?? '');
  const [error, setError] = useState<string | null>(null);
  if (handles.length === 0) return null;
  if (targets.length === 0) return <p className="muted">Every other step leads here already: add a step after this one to go on.</p>;
  const h = handles.some((x) => x.id === handle) ? handle : handles[0].id;
  const t = targets.some((x) => x.id === target) ? target : targets[0].id;
  return (
    <div className="wf-connect" role="group" aria-label="Connect">
      {handles.length > 1 && (
        <SelectField label="Branch" value={h} onChange={(e) => setHandle(e.target.value)}>
          {handles.map((x) => (
            <option key={x.id} value={x.id}>
              {x.label}
            </option>
          ))}
        </SelectField>
      )}
      <SelectField label="Next step" value={t} onChange={(e) => setTarget(e.target.value)}>
        {targets.map((s) => (
          <option key={s.id} value={s.id}>
            {stepTitle(s, { templates: names })}
          </option>
        ))}
      </SelectField>
      <Button
        onClick={() => {
          const r = connectionToTransition({ source: step.id, target: t, sourceHandle: h }, workflow);
          if ('error' in r) return setError(r.error);
          setError(null);
          onConnect(r.body);
        }}
        pending={pending}
        pendingLabel="Connecting…"
      >
        Connect
      </Button>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
