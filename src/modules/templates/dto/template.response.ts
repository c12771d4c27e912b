import { ApiProperty } from '@nestjs/swagger';
import type { Template, TemplateType } from '../entities/template.entity';
import { ReferencesResponse } from '../../../platform/usage/usage-response';

export class TemplateResponse {
  @ApiProperty({ description: 'Identifier (UUID)', type: String })
  id!: string;
  @ApiProperty({ description: 'Name', type: String })
  name!: string;
  @ApiProperty({ description: 'Free-text description', type: String, nullable: true })
  description!: string | null;
  @ApiProperty({ description: 'Subject line (Liquid template)', type: String })
  subject!: string;
  @ApiProperty({ description: 'HTML body (Liquid template)', type: String })
  body!: string;
  @ApiProperty({ description: 'Sender address (on a verified domain)', type: String })
  from!: string;
  @ApiProperty({ description: 'Sender display name', type: String, nullable: true })
  fromName!: string | null;
  @ApiProperty({ description: 'Reply-To address', type: String, nullable: true })
  replyTo!: string | null;
  @ApiProperty({ description: "TRANSACTIONAL, MARKETING or HEADLESS", type: String })
  type!: TemplateType;
  @ApiProperty({ description: 'Project id (UUID)', type: String })
  projectId!: string;
  @ApiProperty({ description: 'Creation time (ISO 8601)', type: String })
  createdAt!: string;
  @ApiProperty({ description: 'Last change (ISO 8601)', type: String })
  updatedAt!: string;
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

export class TemplatePage {
  @ApiProperty({ description: "Templates of this page", type: () => [TemplateResponse] })
  data!: TemplateResponse[];
  @ApiProperty({ description: "Page number", type: Number })
  page!: number;
  @ApiProperty({ description: 'Page size, 1-100 (default 20; larger values are clamped)', type: Number })
  pageSize!: number;
  @ApiProperty({ description: 'Total count', type: Number })
  total!: number;
  @ApiProperty({ description: 'Number of pages', type: Number })
  totalPages!: number;
}

/** `GET /templates/:id/usage`: the usage endpoints' one shape (workflows listed per SEND_EMAIL step). */
export class TemplateUsageResponse extends ReferencesResponse {}
