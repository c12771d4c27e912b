import { ApiProperty } from '@nestjs/swagger';
import { erasureJobIds } from '../../import/job-id';
import type { ErasureStatus } from '../erasure-steps';
import type { ErasureRow } from '../erasures.rows';

const STATUSES: ErasureStatus[] = ['queued', 'running', 'completed', 'failed'];
const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

/** `POST /contacts/:id/erase`: the erasure queued (or the one already under way for the contact). */
export class ErasureQueuedResponse {
  @ApiProperty({ description: 'Erasure id: poll GET /contacts/erasures/{jobId}', type: String })
  jobId!: string;
  @ApiProperty({ description: 'queued, running, completed or failed', enum: STATUSES })
  status!: ErasureStatus;
}

export class ErasureResponse {
  @ApiProperty({ description: 'Erasure id', type: String })
  id!: string;
  @ApiProperty({ description: 'The contact erased (it no longer exists once completed)', type: String })
  contactId!: string;
  @ApiProperty({ description: 'queued, running, completed or failed', enum: STATUSES })
  status!: ErasureStatus;
  @ApiProperty({ description: 'When it was asked for (ISO 8601)', type: String })
  requestedAt!: string;
  @ApiProperty({ description: 'When it completed (or failed)', type: String, nullable: true })
  completedAt!: string | null;
}

export class ErasureRequesterResponse {
  @ApiProperty({ description: 'user: a dashboard session; key: the secret key', enum: ['user', 'key'] })
  type!: 'user' | 'key';
  @ApiProperty({ description: "The user's id, or the secret key's id (its prefix, as `secretPrefix` shows it)", type: String })
  id!: string;
}

/** An entry of `GET /contacts/erasures`: the erasure and who asked for it, never the contact's address. */
export class ErasureListItemResponse extends ErasureResponse {
  @ApiProperty({ description: 'Who asked for it', type: () => ErasureRequesterResponse })
  requestedBy!: ErasureRequesterResponse;
}

export const toErasureResponse = (row: ErasureRow): ErasureResponse => ({
  id: erasureJobIds.toWire(row.id),
  contactId: row.contact_id,
  status: row.status,
  requestedAt: iso(row.requested_at)!,
  completedAt: iso(row.completed_at),
});

export const toErasureListItem = (row: ErasureRow): ErasureListItemResponse => ({
  ...toErasureResponse(row),
  requestedBy: { type: row.requested_by_type, id: row.requested_by_id },
});
