// What other modules may import from smtp (docs/architecture.md, "Module boundaries"):
// the lint rule mailroom/module-boundaries allows an import from another module only of a file listed here.
export * from './smtp.module';
export * from './smtp-listeners';
export * from './smtp-reply';
export * from './smtp-tls';
