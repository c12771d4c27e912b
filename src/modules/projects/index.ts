// What other modules may import from projects (docs/architecture.md, "Module boundaries"):
// the lint rule mailroom/module-boundaries allows an import from another module only of a file listed here.
export * from './entities/project.entity';
export * from './params.pipe';
export * from './project-setting-checks';
export * from './projects.errors';
export * from './projects.module';
export * from './projects.service';
export * from './reputation-counts';
export * from './retention.service';
export * from './retention/retention-policy';
export * from './retention/retention-registry';
export * from './worker/retention-prune';
export * from './security.service';
