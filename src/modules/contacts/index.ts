// What other modules may import from contacts (docs/architecture.md, "Module boundaries"):
// the lint rule mailroom/module-boundaries allows an import from another module only of a file listed here.
export * from './contact-fields.service';
export * from './consent/confirmation-mailer';
export * from './consent/double-opt-in';
export * from './consent/double-opt-in.service';
export * from './contacts.module';
export * from './contacts.rows';
export * from './contacts.service';
export * from './contacts.sql';
export * from './data/field-types';
export * from './dto/contact.response';
export * from './dto/double-opt-in-field';
export * from './dto/email-field';
export * from './export/contact-selections';
export type { ContactExportSelection } from './export/contact-exports.rows';
export * from './entities/contact.entity';
export * from './personal-data/personal-data.registry';
export * from './sql/upsert-contacts-batch.sql';
export * from './track/track.module';
