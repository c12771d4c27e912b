import type { Template, TemplateType } from '../entities/template.entity';

export interface TemplateResponse {
  id: string;
  name: string;
  description: string | null;
  subject: string;
  body: string;
  from: string;
  fromName: string | null;
  replyTo: string | null;
  type: TemplateType;
  projectId: string;
  createdAt: string;
  updatedAt: string;
}

export function toTemplateResponse(t: Template): TemplateResponse {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    subject: t.subject,
    body: t.body,
    from: t.fromAddress,
    fromName: t.fromName,
    replyTo: t.replyTo,
    type: t.type,
    projectId: t.projectId,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

export interface TemplatePage {
  data: TemplateResponse[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}

export interface TemplateUsageResponse {
  campaigns: Array<{ id: string; name: string; status: string | null }>;
  workflowSteps: Array<{ id: string; workflowId: string; workflowName: string | null }>;
}
