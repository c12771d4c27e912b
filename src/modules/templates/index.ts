// What other modules may import from templates (docs/architecture.md, "Module boundaries"):
// the lint rule mailroom/module-boundaries allows an import from another module only of a file listed here.
export * from './dto/create-template.dto';
export * from './dto/template.response';
export * from './entities/template.entity';
export * from './liquid-check';
export * from './rendering/confirm-url';
export * from './rendering/liquid-engine';
export * from './rendering/render-pool';
export * from './templates.errors';
export * from './templates.module';
export * from './templates.service';
