// What other modules may import from webhooks (docs/architecture.md, "Module boundaries"):
// the lint rule mailroom/module-boundaries allows an import from another module only of a file listed here.
export * from './webhooks.module';
export * from './webhooks.service';
