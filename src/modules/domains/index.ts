// What other modules may import from domains (docs/architecture.md, "Module boundaries"):
// the lint rule mailroom/module-boundaries allows an import from another module only of a file listed here.
export * from './bounce-domain';
export * from './dns/dns-resolver';
export * from './domain-name';
export * from './domains.module';
export * from './domains.service';
export * from './sender-domain';
export * from './warmup/warmup-cap.sql';
export * from './warmup/warmup-ledger.store';
