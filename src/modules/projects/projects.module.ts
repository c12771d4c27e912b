import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { ApiKeyStrategy } from './api-key.strategy';
import { ProjectMember } from './entities/project-member.entity';
import { Project } from './entities/project.entity';
import { ProjectSessionStrategy } from './project-session.strategy';
import { ProjectsController } from './projects.controller';
import { ProjectsService } from './projects.service';
import { SecurityController } from './security.controller';
import { SecurityService } from './security.service';

@Module({
  imports: [AuthModule, TypeOrmModule.forFeature([Project, ProjectMember])],
  controllers: [ProjectsController, SecurityController],
  providers: [ProjectsService, ApiKeyStrategy, ProjectSessionStrategy, SecurityService],
  exports: [ProjectsService, SecurityService],
})
export class ProjectsModule {}
