import { ApiProperty } from '@nestjs/swagger';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../entities/webhook-delivery.entity';
import { DISABLED_REASONS, type DisabledReason } from '../entities/webhook-endpoint.entity';
import type { EndpointRow } from '../webhooks.rows';

export class WebhookResponse {
  @ApiProperty({ description: 'Identifier (UUID)', type: String })
  id!: string;
  @ApiProperty({ description: 'The endpoint URL', type: String })
  url!: string;
  @ApiProperty({ description: 'What the endpoint is for', type: String, nullable: true })
  description!: string | null;
  @ApiProperty({ description: 'Patterns over event names it receives', type: [String] })
  events!: string[];
  @ApiProperty({ description: 'Whether it receives events', type: Boolean })
  enabled!: boolean;
  @ApiProperty({ description: 'Why the service disabled it: GONE (it answered 410) or FAILING (no success for 5 days); null otherwise', enum: DISABLED_REASONS, nullable: true })
  disabledReason!: DisabledReason | null;
  @ApiProperty({ description: 'Creation time (ISO 8601)', type: String })
  createdAt!: string;
  @ApiProperty({ description: 'Last change (ISO 8601)', type: String })
  updatedAt!: string;
  @ApiProperty({ description: 'Last successful attempt (ISO 8601)', type: String, nullable: true })
  lastSuccessAt!: string | null;
  @ApiProperty({ description: 'First failed attempt since the last success (ISO 8601): the auto-disable clock; null when not failing', type: String, nullable: true })
  failingSince!: string | null;
  @ApiProperty({ description: 'When the newest delivery was made (ISO 8601)', type: String, nullable: true })
  lastDeliveryAt!: string | null;
  @ApiProperty({ description: 'Status of the newest delivery', enum: DELIVERY_STATUSES, nullable: true })
  lastDeliveryStatus!: DeliveryStatus | null;
  @ApiProperty({ description: 'Until when the secret before the last rotation still signs (ISO 8601); null when only one secret signs', type: String, nullable: true })
  previousSecretExpiresAt!: string | null;
}

export class CreatedWebhookResponse extends WebhookResponse {
  @ApiProperty({ description: 'The signing secret (`whsec_…`), shown only here and by rotate-secret', type: String })
  secret!: string;
}

export class WebhookSecretResponse {
  @ApiProperty({ description: 'The new signing secret (`whsec_…`); for 24 hours the previous one signs too', type: String })
  secret!: string;
}

export class WebhookTestResponse {
  @ApiProperty({ description: 'Outcome of the attempt', enum: ['succeeded', 'failed'] })
  status!: 'succeeded' | 'failed';
  @ApiProperty({ description: "The endpoint's answer status, null when none came (timeout, refused address, reset)", type: 'integer', nullable: true })
  responseStatus!: number | null;
  @ApiProperty({ description: 'Duration of the attempt in milliseconds', type: 'integer' })
  durationMs!: number;
  @ApiProperty({ description: 'Why it failed, null on success', type: String, nullable: true })
  error!: string | null;
  @ApiProperty({ description: 'The delivery the test recorded in the log', type: String })
  deliveryId!: string;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export function toWebhookResponse(e: EndpointRow, now = new Date()): WebhookResponse {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    events: e.events,
    enabled: e.enabled,
    disabledReason: e.disabledReason,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
    lastSuccessAt: iso(e.lastSuccessAt),
    failingSince: iso(e.failingSince),
    lastDeliveryAt: iso(e.lastDeliveryAt),
    lastDeliveryStatus: e.lastDeliveryStatus,
    previousSecretExpiresAt: e.previousSecret && e.previousSecretExpiresAt && e.previousSecretExpiresAt > now ? e.previousSecretExpiresAt.toISOString() : null,
  };
}
