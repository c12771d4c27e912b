import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ContactsService } from '../../contacts/contacts.service';
import { EmailType, respectsSubscription, SuppressionCheck, SuppressionReason, SuppressionSource } from './suppression.types';

const normalize = (email: string): string => email.trim().toLowerCase();

@Injectable()
export class SuppressionService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly contacts: ContactsService,
  ) {}

  /**
   * Whether a send of `type` to `email` must be skipped. Suppression wins over unsubscription as
   * the reported reason (it is the stronger, address-level signal). Pass `subscribed` when the
   * caller already holds the contact, to save a lookup.
   */
  async check(projectId: string, email: string, type: EmailType, subscribed?: boolean, manager?: EntityManager): Promise<SuppressionCheck> {
    if (!respectsSubscription(type)) return { skip: false };
    if (await this.isSuppressed(projectId, email, manager)) return { skip: true, reason: 'suppressed' };
    const isSubscribed = subscribed ?? (await this.contacts.findByEmail(projectId, normalize(email), manager))?.subscribed ?? true;
    return isSubscribed ? { skip: false } : { skip: true, reason: 'unsubscribed' };
  }

  async isSuppressed(projectId: string, email: string, manager?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await (manager ?? this.dataSource.manager).query(`SELECT 1 FROM suppressions WHERE project_id = $1 AND email = $2`, [
      projectId,
      normalize(email),
    ]);
    return rows.length > 0;
  }

  /** Idempotent: the first reason recorded for an address is kept. Returns whether it was added now. */
  async add(projectId: string, email: string, reason: SuppressionReason, source: SuppressionSource = 'api', manager?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await (manager ?? this.dataSource.manager).query(
      `INSERT INTO suppressions (project_id, email, reason, source) VALUES ($1, $2, $3, $4)
       ON CONFLICT (project_id, email) DO NOTHING RETURNING email`,
      [projectId, normalize(email), reason, source],
    );
    return rows.length > 0;
  }

  async remove(projectId: string, email: string): Promise<boolean> {
    const [, affected] = (await this.dataSource.query(`DELETE FROM suppressions WHERE project_id = $1 AND email = $2`, [projectId, normalize(email)])) as [unknown, number];
    return affected > 0;
  }
}
