// What other modules may import from uploads (docs/architecture.md, "Module boundaries"):
// the lint rule mailroom/module-boundaries allows an import from another module only of a file listed here.
export * from './uploads.module';
export * from './storage/image-storage';
export * from './storage/object-storage';
