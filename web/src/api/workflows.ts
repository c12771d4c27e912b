import { useQuery } from '@tanstack/react-query';
import { useApi, useProjectId } from '../lib/project';
import { qk } from './queryKeys';
import type { OffsetList } from './types';

export type StepType = 'TRIGGER' | 'SEND_EMAIL' | 'DELAY' | 'WAIT_FOR_EVENT' | 'CONDITION' | 'WEBHOOK' | 'UPDATE_CONTACT' | 'EXIT';
export type ExecutionStatus = 'RUNNING' | 'WAITING' | 'COMPLETED' | 'EXITED' | 'FAILED' | 'CANCELLED';

export interface WorkflowStep {
  id: string;
  type: StepType;
  name: string | null;
  config: Record<string, unknown>;
  position: { x: number; y: number } | null;
}
export interface WorkflowTransition {
  id: string;
  fromStepId: string;
  toStepId: string;
  branch: 'yes' | 'no' | null;
  waitOutcome: 'EVENT' | 'TIMEOUT' | null;
}
export interface Workflow {
  id: string;
  name: string;
  description: string | null;
  triggerType: 'EVENT' | 'MANUAL';
  triggerConfig: { eventName: string };
  enabled: boolean;
  allowReentry: boolean;
  steps: WorkflowStep[];
  transitions: WorkflowTransition[];
  createdAt: string;
  updatedAt: string;
}
export interface ExecutionStep {
  stepId: string;
  type: StepType;
  status: string;
  startedAt: string;
  completedAt: string | null;
  output: unknown;
  error: string | null;
}
export interface Execution {
  id: string;
  workflowId: string;
  contactId: string;
  status: ExecutionStatus;
  currentStepId: string | null;
  exitReason: string | null;
  context: Record<string, unknown> | null;
  startedAt: string;
  completedAt: string | null;
  steps?: ExecutionStep[];
}

export const ACTIVE: ExecutionStatus[] = ['RUNNING', 'WAITING'];

export function useWorkflowList(page: number) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'workflows', 'list', page),
    queryFn: ({ signal }) => api.get<OffsetList<Workflow>>('/workflows', { page, pageSize: 20 }, signal),
    placeholderData: (previous) => previous,
  });
}

export function useWorkflow(workflowId: string) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({ queryKey: qk.p(projectId, 'workflows', 'one', workflowId), queryFn: () => api.get<Workflow>(`/workflows/${encodeURIComponent(workflowId)}`) });
}

export function useExecutions(workflowId: string, page: number, status: ExecutionStatus | '') {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'workflows', 'executions', workflowId, { page, status }),
    queryFn: ({ signal }) => api.get<OffsetList<Execution>>(`/workflows/${encodeURIComponent(workflowId)}/executions`, { page, pageSize: 20, status }, signal),
    placeholderData: (previous) => previous,
    refetchInterval: (q) => (q.state.data?.data.some((e) => ACTIVE.includes(e.status)) ? 2000 : 5000),
  });
}

export function useExecution(workflowId: string, executionId: string) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'workflows', 'execution', workflowId, executionId),
    queryFn: () => api.get<Execution>(`/workflows/${encodeURIComponent(workflowId)}/executions/${encodeURIComponent(executionId)}`),
    refetchInterval: (q) => (q.state.data && ACTIVE.includes(q.state.data.status) ? 1000 : false),
  });
}
