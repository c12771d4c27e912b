import { Module } from '@nestjs/common';
import { SmtpListeners } from './smtp-listeners';
import { SmtpTls } from './smtp-tls';

/** The SMTP listener foundation (docs/smtp.md): TLS material and listener lifecycle, used by the submission relay and inbound mail. */
@Module({
  providers: [SmtpTls, SmtpListeners],
  exports: [SmtpTls, SmtpListeners],
})
export class SmtpModule {}
