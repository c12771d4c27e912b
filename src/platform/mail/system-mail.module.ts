import { Global, Module } from '@nestjs/common';
import { EmailsModule } from '../../modules/emails/emails.module';
import { PipelineSystemMailer } from '../../modules/emails/system/pipeline-system-mailer';
import { SystemMailer } from './system-mailer';

/** Global `SystemMailer`, bound to the sending pipeline (account mail from `SYSTEM_FROM`, no project). */
@Global()
@Module({
  imports: [EmailsModule],
  providers: [{ provide: SystemMailer, useExisting: PipelineSystemMailer }],
  exports: [SystemMailer],
})
export class SystemMailModule {}
