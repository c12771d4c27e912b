import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { logger } from '../../logging/logger';
import type { IdempotencyClaim } from './idempotency-claim';
import { HeldRow, IdempotencyRepository } from './idempotency.repository';

export interface HeldKey {
  method: string;
  path: string;
  statusCode: number | null;
  /** The first request's answer (its body), stored with the claim. */
  response: unknown;
  createdAt: Date;
}

const held = (row: HeldRow): HeldKey => ({
  method: row.method,
  path: row.path,
  statusCode: row.status_code,
  response: row.response ?? null,
  createdAt: new Date(row.created_at),
});

/**
 * Idempotency keys live in PostgreSQL so every process sees the same claims. A key is claimed
 * inside the transaction that writes the request's rows (`claimIn`, then `recordIn` with the
 * answer): a request that fails or dies before its commit leaves no claim, and a claim that
 * exists means the request's effect exists (docs/api.md, "Idempotency").
 */
@Injectable()
export class IdempotencyService {
  private readonly log = logger('idempotency');

  constructor(
    private readonly repository: IdempotencyRepository,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** The live (unexpired, committed) claim of a key, if any. */
  async find(projectId: string, key: string): Promise<HeldKey | null> {
    const row = await this.repository.findLive(projectId, key);
    return row ? held(row) : null;
  }

  /**
   * Claims the keys in the caller's transaction, one statement; the claims of one call must name
   * distinct keys. A key held by a transaction still running makes this wait for its end: taken
   * if it rolled back, refused if it committed. An expired claim is taken over. Returns per claim
   * whether it was taken.
   */
  async claimIn(em: EntityManager, claims: IdempotencyClaim[]): Promise<boolean[]> {
    if (claims.length === 0) return [];
    const taken = await this.repository.claimAcrossProjects(claims, this.config.idempotencyTtlHours, em);
    return claims.map((c) => taken.has(`${c.projectId}\n${c.key}`));
  }

  /** Stores the answers of claimed requests (a batch's: one statement), in the transaction that claimed them. */
  async recordIn(em: EntityManager, answers: Array<{ claim: IdempotencyClaim; statusCode: number; response: unknown }>): Promise<void> {
    await this.repository.recordAnswers(answers.map(({ claim, statusCode, response }) => ({ projectId: claim.projectId, key: claim.key, statusCode, response })), em);
    for (const { claim } of answers) claim.recorded = true;
  }

  /**
   * For an `@Idempotent()` handler that wrote without claiming (no transaction of its own): the
   * key is recorded after the effect, so a crash in between lets a retry repeat it, never lose it.
   */
  async recordAfter(claim: IdempotencyClaim, statusCode: number, response: unknown): Promise<void> {
    await this.repository.insertAnswered(claim.projectId, claim, statusCode, response, this.config.idempotencyTtlHours);
    claim.recorded = true;
  }

  /** Deletes every expired key (the purge round, `worker/idempotency-purge.ts`); how many went. */
  async purgeExpired(): Promise<number> {
    try {
      return await this.repository.purgeExpiredAcrossProjects();
    } catch (err) {
      this.log.warn({ err }, 'purging expired idempotency keys failed');
      return 0;
    }
  }
}
