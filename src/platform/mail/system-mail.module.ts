import { Global, Module } from '@nestjs/common';
import { OutboxSystemMailer } from './outbox-system-mailer';
import { SystemMailer } from './system-mailer';

/** Global `SystemMailer`; the sending module may override the binding with the real pipeline. */
@Global()
@Module({
  providers: [{ provide: SystemMailer, useClass: OutboxSystemMailer }],
  exports: [SystemMailer],
})
export class SystemMailModule {}
