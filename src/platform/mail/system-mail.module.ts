import { Global, Module } from '@nestjs/common';
import { EmailsModule, PipelineSystemMailer } from '../../modules/emails';
import { SystemMailer } from './system-mailer';

/** Global `SystemMailer`, bound to the sending pipeline (account mail from `SYSTEM_FROM`, no project). */
@Global()
@Module({
  imports: [EmailsModule],
  providers: [{ provide: SystemMailer, useExisting: PipelineSystemMailer }],
  exports: [SystemMailer],
})
export class SystemMailModule {}
