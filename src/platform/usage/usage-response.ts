import { ApiProperty } from '@nestjs/swagger';
import type { UsageRefs } from './usage.registry';

/** The `segments` / `campaigns` / `workflows` lists of the usage endpoints (templates, events, fields). */
export interface References {
  segments: Array<{ id: string; name: string }>;
  campaigns: Array<{ id: string; name: string }>;
  workflows: Array<{ id: string; name: string; stepId?: string }>;
}

/**
 * One entry per referencing record: a workflow referencing from several steps is listed once,
 * unless `steps` asks for one entry per referencing step, with its `stepId` (a template is
 * referenced by SEND_EMAIL steps only, so its usage names them).
 */
export function referencesOf(refs: UsageRefs, options: { steps?: boolean } = {}): References {
  const unique = (list: UsageRefs['segments']) => [...new Map(list.map((r) => [r.id, { id: r.id, name: r.name }])).values()];
  const workflows = options.steps ? refs.workflows.map((r) => (r.stepId ? { id: r.id, name: r.name, stepId: r.stepId } : { id: r.id, name: r.name })) : unique(refs.workflows);
  return { segments: unique(refs.segments), campaigns: unique(refs.campaigns), workflows };
}

const REFERENCE = { id: { type: 'string', description: 'Id of the referencing record' }, name: { type: 'string', description: 'Its name' } } as const;

/** The usage shape (docs/decisions.md#billing-security-uploads): `{segments: [{id, name}], campaigns: [{id, name}], workflows: [{id, name, stepId?}]}`. */
export class ReferencesResponse implements References {
  @ApiProperty({ description: 'Segments whose filters reference it', type: 'array', items: { type: 'object', required: ['id', 'name'], properties: REFERENCE } })
  segments!: Array<{ id: string; name: string }>;
  @ApiProperty({ description: 'Campaigns that reference it (audience filter, segment or template)', type: 'array', items: { type: 'object', required: ['id', 'name'], properties: REFERENCE } })
  campaigns!: Array<{ id: string; name: string }>;
  @ApiProperty({
    description: 'Workflows that reference it; `stepId` names the referencing step where the usage lists steps (templates: one entry per SEND_EMAIL step)',
    type: 'array',
    items: { type: 'object', required: ['id', 'name'], properties: { ...REFERENCE, stepId: { type: 'string', description: 'The referencing step (UUID)' } } },
  })
  workflows!: Array<{ id: string; name: string; stepId?: string }>;
}
