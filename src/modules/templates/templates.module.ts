import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProjectsModule } from '../projects';
import { ActivityModule } from '../activity';
import { DomainsModule } from '../domains';
import { Template } from './entities/template.entity';
import { RenderPool } from './rendering/render-pool';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { TemplatesController } from './templates.controller';
import { TemplatesRepository } from './templates.repository';
import { TemplatesService } from './templates.service';
import { LiquidCheck } from './liquid-check';
import { TemplateUsage } from './template-usage';

@Module({
  imports: [ProjectsModule, TypeOrmModule.forFeature([Template]), DomainsModule, ActivityModule],
  controllers: [TemplatesController],
  // One renderer pool per process (docs/rendering.md): its processes start on first use and stop with the application.
  providers: [TemplatesRepository, TemplatesService, TemplateUsage, LiquidCheck, { provide: RenderPool, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new RenderPool({}, config.role !== 'api') }],
  exports: [TemplatesService, RenderPool, LiquidCheck],
})
export class TemplatesModule {}
