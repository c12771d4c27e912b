// What other modules may import from events (docs/architecture.md, "Module boundaries"):
// the lint rule mailroom/module-boundaries allows an import from another module only of a file listed here.
export * from './contact-directory';
export * from './contact-id';
export * from './dto/event.response';
export * from './contact-events.sql';
export * from './events-insert.sql';
export * from './events-queries.service';
export * from './events.module';
export * from './events.service';
export * from './events.types';
export * from './outbox/event-consumers';
export * from './project-events.sql';
export * from './reserved-names';
