import { join } from 'node:path';
import type { Provider } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { APP_CONFIG } from '../../../config/config.module';
import { EMAIL_TRANSPORT, EmailTransport } from './email-transport';
import { OutboxTransport } from './outbox.transport';
import { SesTransport } from './ses.transport';
import { SmtpTransport } from './smtp.transport';

export function createEmailTransport(config: AppConfig): EmailTransport {
  switch (config.email.transport) {
    case 'smtp':
      return new SmtpTransport(config.email.smtpUrl!, config.email.smtpPoolSize);
    case 'ses':
      return new SesTransport(config.aws);
    default:
      return new OutboxTransport(join(config.dataDir, 'outbox'));
  }
}

export const emailTransportProvider: Provider = {
  provide: EMAIL_TRANSPORT,
  useFactory: (config: AppConfig) => createEmailTransport(config),
  inject: [APP_CONFIG],
};
