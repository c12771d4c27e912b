import { Module } from '@nestjs/common';
import { DomainsModule } from '../domains';
import { EmailsModule } from '../emails';
import { ProjectsModule } from '../projects';
import { SmtpListeners } from './smtp-listeners';
import { SmtpTls } from './smtp-tls';
import { SubmissionRelay } from './submission/submission-relay';

/**
 * SMTP (docs/smtp.md): the listener foundation (TLS material, listener lifecycle), used by the
 * submission relay here and by inbound mail, and the submission relay itself.
 */
@Module({
  imports: [ProjectsModule, DomainsModule, EmailsModule],
  providers: [SmtpTls, SmtpListeners, SubmissionRelay],
  exports: [SmtpTls, SmtpListeners],
})
export class SmtpModule {}
