// What other modules may import from emails (docs/architecture.md, "Module boundaries"):
// the lint rule mailroom/module-boundaries allows an import from another module only of a file listed here.
export * from './contact-emails.sql';
export * from './email-event-data';
export * from './email-queue.facade';
export * from './email-reads.repository';
export * from './email-status.store';
export * from './emails.module';
export * from './emails.service';
export * from './engine/send-time-bounces';
export * from './marks/bounce-address';
export * from './marks/confirm-token';
export * from './marks/instrument-tracking';
export * from './marks/recipient-links';
export * from './marks/recipient-token';
export * from './marks/tracking-links';
export * from './entities/email.entity';
export * from './previews/previews.dto';
export * from './recipient-policy';
export * from './send/send-request';
export * from './sql/campaign-emails.sql';
export * from './sql/suppressions.sql';
export * from './system/pipeline-system-mailer';
export * from './test-copy';
export * from './transports/email-transport';
export * from './use-cases/email-previews';
