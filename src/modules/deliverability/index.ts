// What other modules may import from deliverability (docs/architecture.md, "Module boundaries"):
// the lint rule mailroom/module-boundaries allows an import from another module only of a file listed here.
export * from './deliverability.module';
export * from './inbound/delivery-feedback.service';
