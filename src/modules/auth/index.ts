// What other modules may import from auth (docs/architecture.md, "Module boundaries"):
// the lint rule mailroom/module-boundaries allows an import from another module only of a file listed here.
export * from './access.guard';
export * from './auth.decorators';
export { insufficientRole } from './auth.errors';
export * from './auth.module';
export * from './auth.service';
export * from './entities/user.entity';
export * from './principal';
export * from './sessions.service';
export * from './users.service';
