import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { logger } from '../../platform/logging/logger';
import { UsersService } from '../auth/users.service';
import { ProjectsService } from './projects.service';

/** Arbitrary constant: serialises the bootstrap of processes that start together. */
const BOOTSTRAP_LOCK = 7_246_002;

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
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.bootstrap) await this.run(this.config.bootstrap.email, this.config.bootstrap.password);
  }

  async run(email: string, password: string): Promise<boolean> {
    const passwordHash = await this.users.hashPassword(password);
    const created = await this.db.transaction(async (em) => {
      await em.query(`SELECT pg_advisory_xact_lock($1)`, [BOOTSTRAP_LOCK]);
      const [{ any }]: Array<{ any: boolean }> = await em.query(`SELECT EXISTS (SELECT 1 FROM users) AS any`);
      if (any) return null;
      const [user]: Array<{ id: string }> = await em.query(
        `INSERT INTO users (email, password_hash, email_verified, email_verified_at) VALUES ($1, $2, true, now()) RETURNING id`,
        [email.trim().toLowerCase(), passwordHash],
      );
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
