import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth';
import { AccountController } from './account.controller';
import { AccountService } from './account.service';
import { ApiKeyStrategy } from './api-key.strategy';
import { ProjectMember } from './entities/project-member.entity';
import { ProjectSuspension } from './entities/project-suspension.entity';
import { Project } from './entities/project.entity';
import { BootstrapService } from './bootstrap.service';
import { MembersController } from './members.controller';
import { MembersService } from './members.service';
import { ProjectSessionStrategy } from './project-session.strategy';
import { ProjectsController } from './projects.controller';
import { ProjectSettingChecks } from './project-setting-checks';
import { ProjectsRepository } from './projects.repository';
import { ProjectsService } from './projects.service';
import { ReputationCounts } from './reputation-counts';
import { SetupStateService } from './setup-state.service';
import { SecurityController } from './security.controller';
import { SecurityService } from './security.service';
import { DataHeldRepository } from './data-held.repository';
import { RetentionService } from './retention.service';
import { RetentionRegistry } from './retention/retention-registry';
import { RetentionPrune } from './worker/retention-prune';

@Module({
  imports: [AuthModule, TypeOrmModule.forFeature([Project, ProjectMember, ProjectSuspension])],
  controllers: [ProjectsController, MembersController, SecurityController, AccountController],
  providers: [AccountService, ProjectsRepository, ProjectsService, ApiKeyStrategy, ProjectSessionStrategy, MembersService, SetupStateService, BootstrapService, SecurityService, ReputationCounts, ProjectSettingChecks, RetentionRegistry, RetentionService, DataHeldRepository, RetentionPrune],
  exports: [ProjectsService, SecurityService, ReputationCounts, ProjectSettingChecks, RetentionRegistry, RetentionService, RetentionPrune],
})
export class ProjectsModule {}
