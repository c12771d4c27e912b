import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { WorkflowGraph } from '../graph/workflow-graph';

/** The graph of one version of a workflow, immutable once written. */
@Entity('workflow_versions')
export class WorkflowVersion {
  @PrimaryColumn('uuid') workflowId: string;
  @PrimaryColumn('int') version: number;
  @Column('jsonb') graph: WorkflowGraph;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
}
