import type { DeliveryStatus } from './entities/webhook-delivery.entity';
import type { WebhookEndpoint } from './entities/webhook-endpoint.entity';

/** An endpoint with the newest delivery's time and status (null when it has none). */
export interface EndpointRow extends WebhookEndpoint {
  lastDeliveryAt: Date | null;
  lastDeliveryStatus: DeliveryStatus | null;
}
