import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { logger } from '../../platform/logging/logger';
import { UsersService } from '../auth';
import { ProjectsRepository } from './projects.repository';
import { ProjectsService } from './projects.service';

/**
 * BOOTSTRAP_EMAIL/BOOTSTRAP_PASSWORD: on a database without users, create that (verified) user
 * and a project, and log the project's keys once. Later starts find users and do nothing.
 */
@Injectable()
export class BootstrapService implements OnApplicationBootstrap {
  private readonly log = logger('bootstrap');

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    @InjectDataSource() private readonly db: DataSource,
    private readonly users: UsersService,
    private readonly projects: ProjectsService,
    private readonly repository: ProjectsRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.bootstrap) await this.run(this.config.bootstrap.email, this.config.bootstrap.password);
  }

  async run(email: string, password: string): Promise<boolean> {
    const passwordHash = await this.users.hashPassword(password);
    const created = await this.db.transaction(async (em) => {
      await this.repository.lockBootstrap(em);
      const user = await this.users.createFirstIn(em, email, passwordHash);
      if (!user) return null;
      return this.projects.createIn(em, user.id, 'Default project');
    });
    if (!created) return false;
    this.log.info(
      { email, projectId: created.project.id, secretKey: created.keys.secret, publicKey: created.keys.public },
      'bootstrap: created the first user and a project; these keys are shown only once',
    );
    return true;
  }
}
