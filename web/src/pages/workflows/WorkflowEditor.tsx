import '@xyflow/react/dist/style.css';
import { useQueryClient } from '@tanstack/react-query';
import { Background, type Connection, Controls, type Edge, Handle, type Node, type NodeChange, type NodeProps, Position, ReactFlow } from '@xyflow/react';
import { useMemo, useState } from 'react';
import { data } from '../../api/client';
import { qk } from '../../api/queryKeys';
import { useTemplateList } from '../../api/templates';
import type { StepType, TransitionBody, Workflow, WorkflowStep } from '../../api/workflows';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { SelectField } from '../../components/Fields';
import { useApiMutation } from '../../lib/forms';
import { useApi, useProjectId } from '../../lib/project';
import { connectionToTransition, defaultConfig, freeHandles, type HandleSpec, nextPosition, STEP_TYPES, stepLabel, summarize, toFlow } from './graph';
import { StepConfigForm } from './StepConfigForm';

type StepNodeData = { step: WorkflowStep; handles: HandleSpec[]; summary: string; selected: boolean };
type StepNode = Node<StepNodeData, 'step'>;

function StepNodeView({ data }: NodeProps<StepNode>) {
  const { step, handles, summary } = data;
  return (
    <div className={`wf-node wf-node-${step.type.toLowerCase()}`} data-testid={`step-${step.id}`} aria-label={`Step ${step.name ?? stepLabel(step.type)}`}>
      {step.type !== 'TRIGGER' && <Handle type="target" position={Position.Top} />}
      <div className="wf-node-type">{stepLabel(step.type)}</div>
      {step.name && step.name !== stepLabel(step.type) && <div className="wf-node-name">{step.name}</div>}
      <div className="wf-node-summary">{summary}</div>
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
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [connectError, setConnectError] = useState<string | null>(null);
  const flow = useMemo(() => toFlow(workflow), [workflow]);
  const derived = useMemo<StepNode[]>(
    () => flow.nodes.map((n) => ({ ...n, type: 'step' as const, data: { ...n.data, summary: summarize(n.data.step, { templates: templateNames }), selected: n.id === selectedId }, selected: n.id === selectedId })),
    [flow, templateNames, selectedId],
  );
  // What the canvas changes locally: positions while dragging (until the drop is saved) and measured sizes.
  const [local, setLocal] = useState<Record<string, { position?: { x: number; y: number }; dragging?: boolean; measured?: { width?: number; height?: number } }>>({});
  const nodes = useMemo(() => derived.map((n) => (local[n.id] ? { ...n, ...local[n.id], position: local[n.id].position ?? n.position } : n)), [derived, local]);
  const onNodesChange = (changes: NodeChange<StepNode>[]) =>
    setLocal((prev) => {
      const next = { ...prev };
      for (const c of changes) {
        if (c.type === 'position' && c.position) next[c.id] = { ...next[c.id], position: c.position, dragging: c.dragging };
        if (c.type === 'dimensions' && c.dimensions) next[c.id] = { ...next[c.id], measured: c.dimensions };
      }
      return next;
    });
  const dropped = (id: string) =>
    setLocal((prev) => {
      const rest = { ...prev[id] };
      delete rest.position;
      delete rest.dragging;
      return { ...prev, [id]: rest };
    });
  const edges: Edge[] = flow.edges.map((e) => ({ ...e, deletable: true, className: e.label ? `wf-edge-${e.label}` : undefined }));

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

  return (
    <div className="wf-editor">
      <div className="wf-canvas" aria-label="Workflow graph">
        <ReactFlow<StepNode, Edge>
          nodes={nodes}
          edges={edges}
          nodeTypes={NODE_TYPES}
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
        <section className="panel">
          <h2>Add a step</h2>
          <SelectField label="Step type" value={newType} onChange={(e) => setNewType(e.target.value as StepType)} hint={STEP_TYPES.find((s) => s.type === newType)?.help}>
            {STEP_TYPES.map((s) => (
              <option key={s.type} value={s.type}>
                {s.label}
              </option>
            ))}
          </SelectField>
          <StepConfigForm
            key={newType}
            workflowId={workflow.id}
            step={{ id: '', type: newType, name: null, config: defaultConfig(newType), position: null }}
            createAt={nextPosition(workflow.steps)}
            onSaved={(created) => {
              if (created) setSelectedId(created.id);
              void refresh();
            }}
          />
          <p className="muted">Then drag from the dot at the bottom of a step to the next step, or use "Connect" below. Select an arrow and press Delete to remove it.</p>
        </section>
        {selected ? (
          <section className="panel" aria-label="Selected step">
            <h2>{selected.name ?? stepLabel(selected.type)}</h2>
            <ConnectControl workflow={workflow} step={selected} onConnect={(body) => void connect.submit(body)} pending={connect.isPending} />
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
          <p className="muted">Select a step in the graph to change its settings or connect it.</p>
        )}
      </aside>
    </div>
  );
}

/** The keyboard way to connect: the selected step's free branch → another step. */
function ConnectControl({ workflow, step, onConnect, pending }: { workflow: Workflow; step: WorkflowStep; onConnect: (body: TransitionBody) => void; pending: boolean }) {
  const handles = freeHandles(step, workflow.transitions);
  const targets = workflow.steps.filter((s) => s.id !== step.id && s.type !== 'TRIGGER');
  const [handle, setHandle] = useState(handles[0]?.id ?? '');
  const [target, setTarget] = useState(targets[0]?.id ?? '');
  const [error, setError] = useState<string | null>(null);
  if (handles.length === 0 || targets.length === 0) return null;
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
            {s.name ?? stepLabel(s.type)} · {summarize(s)}
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
