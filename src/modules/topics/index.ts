// What other modules may import from topics (docs/architecture.md, "Module boundaries"):
// the lint rule mailroom/module-boundaries allows an import from another module only of a file listed here.
export * from './entities/topic.entity';
export * from './topics.errors';
export * from './topics.module';
export * from './topics.service';
export * from './topics.sql';
