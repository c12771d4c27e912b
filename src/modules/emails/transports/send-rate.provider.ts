import type { Provider } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { APP_CONFIG } from '../../../config/config.module';
import { logger } from '../../../platform/logging/logger';
import { EMAIL_TRANSPORT, EmailTransport } from './email-transport';

/** Injection token of the send-rate budget in messages per second (undefined: unlimited). */
export const SEND_RATE = Symbol('SEND_RATE');

/**
 * `SEND_RATE_PER_SECOND` when set; otherwise the transport's own limit when it has one (SES: the
 * account's MaxSendRate, read once at start, so a raised quota applies after a restart).
 * Processes that run no workers skip the lookup.
 */
export async function resolveSendRate(config: AppConfig, transport: EmailTransport): Promise<number | undefined> {
  if (config.email.sendRatePerSecond !== undefined) return config.email.sendRatePerSecond;
  if (config.role === 'api' || !transport.maxSendRate) return undefined;
  const rate = await transport.maxSendRate();
  if (rate !== undefined) logger('email-send').info({ transport: transport.kind, ratePerSecond: rate }, `sending at the ${transport.kind} account's rate limit`);
  return rate;
}

export const sendRateProvider: Provider = {
  provide: SEND_RATE,
  useFactory: resolveSendRate,
  inject: [APP_CONFIG, EMAIL_TRANSPORT],
};
