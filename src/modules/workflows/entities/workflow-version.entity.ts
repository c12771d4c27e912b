import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import type { WorkflowGraph } from '../graph/workflow-graph';
import { Workflow } from './workflow.entity';

/** The graph of one version of a workflow, immutable once written. */
@Entity('workflow_versions')
export class WorkflowVersion {
  @ForeignKey(() => Workflow, { name: 'workflow_versions_workflow_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn('uuid')
  workflowId: string;
  @PrimaryColumn('int') version: number;
  @Column('jsonb') graph: WorkflowGraph;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
}
