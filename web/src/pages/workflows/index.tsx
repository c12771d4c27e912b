import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../../layouts/RouteError';
import ExecutionPage from './ExecutionPage';
import WorkflowPage from './WorkflowPage';
import WorkflowsListPage from './WorkflowsListPage';
import './workflows.css';

export default function WorkflowsSection() {
  return (
    <Routes>
      <Route index element={<WorkflowsListPage />} />
      <Route path=":workflowId" element={<WorkflowPage tab="graph" />} />
      <Route path=":workflowId/executions" element={<WorkflowPage tab="executions" />} />
      <Route path=":workflowId/executions/:executionId" element={<ExecutionPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
