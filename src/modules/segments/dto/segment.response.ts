import { ApiProperty, OmitType, PickType } from '@nestjs/swagger';
import { ContactResponse } from '../../contacts';
import { TemplatePage, TemplateResponse } from '../../templates';
import type { Segment, SegmentType } from '../entities/segment.entity';
import type { FilterTree } from '../../filters';
import { FilterTreeSchema } from '../../filters';

/** id, name, description, projectId and the timestamps mean what they mean on a template. */
export class SegmentResponse extends PickType(TemplateResponse, ['id', 'name', 'description', 'projectId', 'createdAt', 'updatedAt'] as const) {
  @ApiProperty({ description: 'DYNAMIC (members are the contacts matching `condition`, evaluated live) or STATIC (members added by email); fixed at creation', enum: ['DYNAMIC', 'STATIC'] })
  type!: SegmentType;
  @ApiProperty({ description: 'Filter tree of a DYNAMIC segment; null for a STATIC one', type: () => FilterTreeSchema, nullable: true })
  condition!: FilterTree | null;
  @ApiProperty({ description: 'Whether joining and leaving emit `segment.<slug>.entry` and `.exit` events (on compute and the background recompute)', type: Boolean })
  trackMembership!: boolean;
  @ApiProperty({ description: 'Member count as of the last create, compute, refresh or background recompute (every 5 minutes)', type: 'integer' })
  memberCount!: number;
}

export function toSegmentResponse(s: Segment): SegmentResponse {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    type: s.type,
    condition: s.condition,
    trackMembership: s.trackMembership,
    memberCount: s.memberCount,
    projectId: s.projectId,
    createdAt: new Date(s.createdAt).toISOString(),
    updatedAt: new Date(s.updatedAt).toISOString(),
  };
}

/** `GET /segments/:id/contacts`: the offset-list fields (as on every offset list) around contacts. */
export class SegmentMembersPage extends OmitType(TemplatePage, ['data'] as const) {
  @ApiProperty({ description: 'Members of this page, newest contacts first (live for a DYNAMIC segment)', type: () => [ContactResponse] })
  data!: ContactResponse[];
}

export class ComputeResponse {
  @ApiProperty({ description: 'Members now', type: 'integer' })
  memberCount!: number;
  @ApiProperty({ description: 'Contacts that joined since the last compute (each got a `segment.<slug>.entry` event); 0 without trackMembership', type: 'integer' })
  entered!: number;
  @ApiProperty({ description: 'Contacts that left since the last compute (each got a `segment.<slug>.exit` event); 0 without trackMembership', type: 'integer' })
  exited!: number;
}

export class RefreshResponse {
  @ApiProperty({ description: 'Members now (counted only: no membership written, no events)', type: 'integer' })
  memberCount!: number;
}

export class AddMembersResponse {
  @ApiProperty({ description: 'Contacts added to the segment', type: 'integer' })
  added!: number;
  @ApiProperty({ description: 'Contacts that were members already', type: 'integer' })
  alreadyMembers!: number;
  @ApiProperty({ description: 'Contacts created for unknown addresses (with createMissing) and added', type: 'integer' })
  created!: number;
  @ApiProperty({ description: 'Addresses with no contact, not added (send createMissing: true to create them)', type: [String] })
  notFound!: string[];
}

export class RemoveMembersResponse {
  @ApiProperty({ description: 'Members removed (addresses that were not members are ignored)', type: 'integer' })
  removed!: number;
}
