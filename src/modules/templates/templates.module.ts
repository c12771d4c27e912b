import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainsModule } from '../domains/domains.module';
import { Template } from './entities/template.entity';
import { TemplateRenderer } from './rendering/template-renderer';
import { TemplatesController } from './templates.controller';
import { TemplatesService } from './templates.service';
import { TemplateUsage } from './use-cases/template-usage';

@Module({
  imports: [TypeOrmModule.forFeature([Template]), DomainsModule],
  controllers: [TemplatesController],
  providers: [TemplatesService, TemplateRenderer, TemplateUsage],
  exports: [TemplatesService, TemplateRenderer],
})
export class TemplatesModule {}
