// What other modules may import from audit (docs/architecture.md, "Module boundaries"):
// the lint rule mailroom/module-boundaries allows an import from another module only of a file listed here.
export * from './audit-actions';
export * from './audit.module';
export * from './audited.decorator';
