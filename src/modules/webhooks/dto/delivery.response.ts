import { ApiProperty, OmitType } from '@nestjs/swagger';
import type { WebhookAttempt } from '../entities/webhook-attempt.entity';
import { DELIVERY_STATUSES, type DeliveryKind, type DeliveryStatus, type WebhookDelivery } from '../entities/webhook-delivery.entity';

export class DeliveryResponse {
  @ApiProperty({ description: 'Identifier (UUID)', type: String })
  id!: string;
  @ApiProperty({ description: "The event's id: the body's `id` and the `webhook-id` header", type: String })
  eventId!: string;
  @ApiProperty({ description: "The event's name (`type` of the body)", type: String })
  type!: string;
  @ApiProperty({ description: 'pending (an attempt is due), succeeded or failed', enum: DELIVERY_STATUSES })
  status!: DeliveryStatus;
  @ApiProperty({ description: 'Attempts made', type: 'integer' })
  attempts!: number;
  @ApiProperty({ description: 'Last attempt (ISO 8601)', type: String, nullable: true })
  lastAttemptAt!: string | null;
  @ApiProperty({ description: 'When the next attempt is due (ISO 8601); null once the delivery is finished', type: String, nullable: true })
  nextAttemptAt!: string | null;
  @ApiProperty({ description: "The last attempt's answer status", type: 'integer', nullable: true })
  responseStatus!: number | null;
  @ApiProperty({ description: 'Duration of the last attempt in milliseconds', type: 'integer', nullable: true })
  durationMs!: number | null;
  @ApiProperty({ description: 'Why the last attempt failed', type: String, nullable: true })
  error!: string | null;
  @ApiProperty({ description: 'What made it: an event (event), a replay (replay) or a test (test)', enum: ['event', 'replay', 'test'] })
  kind!: DeliveryKind;
  @ApiProperty({ description: 'Creation time (ISO 8601)', type: String })
  createdAt!: string;
}

export class AttemptResponse {
  @ApiProperty({ description: 'Attempt number, from 1', type: 'integer' })
  attempt!: number;
  @ApiProperty({ description: 'When it was made (ISO 8601)', type: String })
  attemptedAt!: string;
  @ApiProperty({ description: 'Answer status; null when none came', type: 'integer', nullable: true })
  responseStatus!: number | null;
  @ApiProperty({ description: 'Answer headers (lower-case names)', type: 'object', additionalProperties: { type: 'string' }, nullable: true })
  responseHeaders!: Record<string, string> | null;
  @ApiProperty({ description: 'The first 2 KB of the answer body', type: String, nullable: true })
  responseBody!: string | null;
  @ApiProperty({ description: 'Duration in milliseconds', type: 'integer' })
  durationMs!: number;
  @ApiProperty({ description: 'Why it failed (timeout, connection error, refused address, a non-2xx answer)', type: String, nullable: true })
  error!: string | null;
}

/** The list item with every attempt in `attempts` (their number is `attemptCount`) and the request body. */
export class DeliveryDetailResponse extends OmitType(DeliveryResponse, ['attempts'] as const) {
  @ApiProperty({ description: 'Every attempt, oldest first', type: () => [AttemptResponse] })
  attempts!: AttemptResponse[];
  @ApiProperty({ description: 'Attempts made (`attempts` of the list item)', type: 'integer' })
  attemptCount!: number;
  @ApiProperty({ description: 'The request body sent (and signed) by every attempt', type: String })
  body!: string;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export function toDeliveryResponse(d: Omit<WebhookDelivery, 'body'>): DeliveryResponse {
  return {
    id: d.id,
    eventId: d.eventId,
    type: d.type,
    status: d.status,
    attempts: d.attempts,
    lastAttemptAt: iso(d.lastAttemptAt),
    nextAttemptAt: d.status === 'pending' ? iso(d.nextAttemptAt) : null,
    responseStatus: d.responseStatus,
    durationMs: d.durationMs,
    error: d.error,
    kind: d.kind,
    createdAt: d.createdAt.toISOString(),
  };
}

export const toAttemptResponse = (a: WebhookAttempt): AttemptResponse => ({
  attempt: a.attempt,
  attemptedAt: a.attemptedAt.toISOString(),
  responseStatus: a.responseStatus,
  responseHeaders: a.responseHeaders,
  responseBody: a.responseBody,
  durationMs: a.durationMs,
  error: a.error,
});

export function toDeliveryDetailResponse(d: WebhookDelivery, attempts: WebhookAttempt[]): DeliveryDetailResponse {
  const { attempts: attemptCount, ...item } = toDeliveryResponse(d);
  return { ...item, attempts: attempts.map(toAttemptResponse), attemptCount, body: d.body };
}
