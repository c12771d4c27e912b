import { useQuery } from '@tanstack/react-query';
import { useApi, useProjectId } from '../lib/project';
import { data } from './client';
import { qk } from './queryKeys';
import type { components } from './schema';

type Schemas = components['schemas'];

export type Workflow = Schemas['WorkflowResponse'];
export type WorkflowStep = Schemas['StepResponse'];
export type WorkflowTransition = Schemas['TransitionResponse'];
export type StepType = WorkflowStep['type'];
/** A step's config as a step is created or changed (one shape per type; the API validates it, 422 per field). */
export type StepConfig = NonNullable<Schemas['UpdateStepDto']['config']>;
export type TransitionBody = Schemas['CreateTransitionDto'];
export type Execution = Schemas['ExecutionResponse'];
export type ExecutionStep = Schemas['ExecutionStepResponse'];
export type ExecutionStatus = Execution['status'];
export type WorkflowField = Schemas['WorkflowFieldResponse'];

export const ACTIVE: ExecutionStatus[] = ['RUNNING', 'WAITING'];

export function useWorkflowList(page: number) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'workflows', 'list', page),
    queryFn: ({ signal }) => data(api.GET('/workflows', { params: { query: { page, pageSize: 20 } }, signal })),
    placeholderData: (previous) => previous,
  });
}

export function useWorkflow(workflowId: string) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({ queryKey: qk.p(projectId, 'workflows', 'one', workflowId), queryFn: () => data(api.GET('/workflows/{id}', { params: { path: { id: workflowId } } })) });
}

/** The fields a CONDITION step may name (contact, trigger event and execution context keys). */
export function useWorkflowFields() {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({ queryKey: qk.p(projectId, 'workflows', 'fields'), queryFn: () => data(api.GET('/workflows/fields')) });
}

export function useExecutions(workflowId: string, page: number, status: ExecutionStatus | '') {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'workflows', 'executions', workflowId, { page, status }),
    queryFn: ({ signal }) => data(api.GET('/workflows/{id}/executions', { params: { path: { id: workflowId }, query: { page, pageSize: 20, status: status || undefined } }, signal })),
    placeholderData: (previous) => previous,
    refetchInterval: (q) => (q.state.data?.data.some((e) => ACTIVE.includes(e.status)) ? 2000 : 5000),
  });
}

export function useExecution(workflowId: string, executionId: string) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'workflows', 'execution', workflowId, executionId),
    queryFn: () => data(api.GET('/workflows/{id}/executions/{executionId}', { params: { path: { id: workflowId, executionId } } })),
    refetchInterval: (q) => (q.state.data && ACTIVE.includes(q.state.data.status) ? 1000 : false),
  });
}

/** How many active executions are at each step now (steps with none are left out); read again every few seconds. */
export function useStepCounts(workflowId: string) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'workflows', 'step-counts', workflowId),
    queryFn: ({ signal }) => data(api.GET('/workflows/{id}/step-counts', { params: { path: { id: workflowId } }, signal })),
    refetchInterval: 5000,
  });
}
