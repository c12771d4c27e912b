import type { Segment } from '../entities/segment.entity';
import type { FilterTree } from '../filter/filter.types';

export interface SegmentResponse {
  id: string;
  name: string;
  description: string | null;
  type: 'DYNAMIC' | 'STATIC';
  condition: FilterTree | null;
  trackMembership: boolean;
  memberCount: number;
  projectId: string;
  createdAt: string;
  updatedAt: string;
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

export interface ComputeResponse {
  memberCount: number;
  entered: number;
  exited: number;
}

export interface AddMembersResponse {
  added: number;
  alreadyMembers: number;
  created: number;
  notFound: string[];
}
