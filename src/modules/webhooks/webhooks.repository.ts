import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ADVISORY_LOCKS } from '../../platform/database/advisory-locks';
import { returnedRows } from '../../platform/database/query-results';
import { StatementRunner } from '../../platform/database/statement-runner';
import type { EndpointRow } from './webhooks.rows';
import type { DeliveryStatus } from './entities/webhook-delivery.entity';
import type { DisabledReason } from './entities/webhook-endpoint.entity';

interface EndpointDbRow {
  id: string;
  project_id: string;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  disabled_reason: DisabledReason | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  last_success_at: Date | null;
  failing_since: Date | null;
  enabled_since: Date;
  created_at: Date;
  updated_at: Date;
  last_delivery_at: Date | null;
  last_delivery_status: DeliveryStatus | null;
}

const toEndpoint = (r: EndpointDbRow): EndpointRow => ({
  id: r.id,
  projectId: r.project_id,
  url: r.url,
  description: r.description,
  events: r.events,
  enabled: r.enabled,
  disabledReason: r.disabled_reason,
  secret: r.secret,
  previousSecret: r.previous_secret,
  previousSecretExpiresAt: r.previous_secret_expires_at,
  lastSuccessAt: r.last_success_at,
  failingSince: r.failing_since,
  enabledSince: r.enabled_since,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  lastDeliveryAt: r.last_delivery_at,
  lastDeliveryStatus: r.last_delivery_status,
});

/** An endpoint with its newest delivery (one probe of `webhook_deliveries_endpoint_created_idx`, backwards). */
const ENDPOINT_SELECT = `
  SELECT w.*, ld.created_at AS last_delivery_at, ld.status AS last_delivery_status
    FROM webhook_endpoints w
    LEFT JOIN LATERAL (
      SELECT d.created_at, d.status FROM webhook_deliveries d WHERE d.endpoint_id = w.id ORDER BY d.created_at DESC, d.id DESC LIMIT 1
    ) ld ON true`;

export interface NewEndpoint {
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  /** Encrypted. */
  secret: string;
}

export interface EndpointChanges {
  url?: string;
  description?: string | null;
  events?: string[];
  enabled?: boolean;
}

/** An enabled endpoint as the fan-out matches events against it. */
export interface SubscribedEndpoint {
  id: string;
  project_id: string;
  events: string[];
  /** Created or last enabled at: events recorded before are not its own. */
  enabled_since: Date;
}

/** The webhooks module's endpoints table (deliveries and attempts: `deliveries.store.ts`). */
@Injectable()
export class WebhooksRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly statements: StatementRunner,
  ) {}

  async list(projectId: string): Promise<EndpointRow[]> {
    const rows: EndpointDbRow[] = await this.dataSource.query(`${ENDPOINT_SELECT} WHERE w.project_id = $1 ORDER BY w.created_at, w.id`, [projectId]);
    return rows.map(toEndpoint);
  }

  async findOne(projectId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<EndpointRow | null> {
    const rows: EndpointDbRow[] = await manager.query(`${ENDPOINT_SELECT} WHERE w.project_id = $1 AND w.id = $2`, [projectId, id]);
    return rows.length ? toEndpoint(rows[0]) : null;
  }

  /**
   * A new endpoint, unless the project has `max` already (null then). The project's create lock,
   * held to the end of the transaction, keeps concurrent creates from passing the limit together.
   */
  async insertWithin(projectId: string, max: number, values: NewEndpoint): Promise<string | null> {
    return this.dataSource.transaction(async (em) => {
      await em.query(`SELECT pg_advisory_xact_lock($1, hashtext($2::text))`, [ADVISORY_LOCKS.webhookEndpoints, projectId]);
      const rows: Array<{ id: string }> = await em.query(
        `INSERT INTO webhook_endpoints (project_id, url, description, events, enabled, secret)
         SELECT $1, $2, $3, $4::text[], $5, $6
          WHERE (SELECT count(*) FROM webhook_endpoints WHERE project_id = $1) < $7
         RETURNING id`,
        [projectId, values.url, values.description, values.events, values.enabled, values.secret, max],
      );
      return rows[0]?.id ?? null;
    });
  }

  /**
   * Applies the changes; enabling clears `disabled_reason` and the failing clock, disabling by
   * hand leaves no reason. Null when the project has no such endpoint.
   */
  async update(projectId: string, id: string, changes: EndpointChanges, manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    const sets: string[] = [];
    const params: unknown[] = [projectId, id];
    const set = (column: string, value: unknown, cast = '') => {
      params.push(value);
      sets.push(`${column} = $${params.length}${cast}`);
    };
    if (changes.url !== undefined) set('url', changes.url);
    if (changes.description !== undefined) set('description', changes.description);
    if (changes.events !== undefined) set('events', changes.events, '::text[]');
    if (changes.enabled !== undefined) {
      // Enabling a disabled endpoint starts its events anew (before `enabled` changes: SET reads the old row).
      if (changes.enabled) sets.push('enabled_since = CASE WHEN enabled THEN enabled_since ELSE now() END');
      set('enabled', changes.enabled);
      sets.push('disabled_reason = NULL');
      if (changes.enabled) sets.push('failing_since = NULL');
    }
    sets.push('updated_at = now()');
    const result = await manager.query(`UPDATE webhook_endpoints SET ${sets.join(', ')} WHERE project_id = $1 AND id = $2 RETURNING id`, params);
    return returnedRows(result).length > 0;
  }

  /** The current secret becomes the previous one, signing along until `previousUntil`. */
  async rotateSecret(projectId: string, id: string, encrypted: string, previousUntil: Date): Promise<boolean> {
    const result = await this.dataSource.query(
      `UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_expires_at = $4, secret = $3, updated_at = now()
        WHERE project_id = $1 AND id = $2 RETURNING id`,
      [projectId, id, encrypted, previousUntil],
    );
    return returnedRows(result).length > 0;
  }

  async delete(projectId: string, id: string): Promise<boolean> {
    const result = await this.dataSource.query(`DELETE FROM webhook_endpoints WHERE project_id = $1 AND id = $2 RETURNING id`, [projectId, id]);
    return returnedRows(result).length > 0;
  }

  /**
   * The enabled endpoints of these projects, for the fan-out: one probe of
   * `webhook_endpoints_project_created_idx` per project, nothing found in the common case.
   */
  enabledOfProjects(projectIds: string[]): Promise<SubscribedEndpoint[]> {
    return this.statements.run<SubscribedEndpoint>(`SELECT id, project_id, events, enabled_since FROM webhook_endpoints WHERE project_id = ANY($1::uuid[]) AND enabled`, [projectIds]);
  }

  /**
   * The sweep's auto-disable across projects: enabled endpoints failing since before `cutoff`
   * (no success since) become disabled FAILING; each is returned once, to the process that
   * disabled it (for the owners' email).
   */
  async disableFailingAcrossProjects(cutoff: Date): Promise<Array<{ id: string; project_id: string; url: string; failing_since: Date }>> {
    const result = await this.dataSource.query(
      `UPDATE webhook_endpoints SET enabled = false, disabled_reason = 'FAILING', updated_at = now()
        WHERE enabled AND failing_since IS NOT NULL AND failing_since < $1
        RETURNING id, project_id, url, failing_since`,
      [cutoff],
    );
    return returnedRows(result);
  }
}
