// What other modules may import from segments (docs/architecture.md, "Module boundaries"):
// the lint rule mailroom/module-boundaries allows an import from another module only of a file listed here.
export * from './audience.service';
export * from './segment-members.sql';
export * from './segment-slug';
export * from './segments.module';
