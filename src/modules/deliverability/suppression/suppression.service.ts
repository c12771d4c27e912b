import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SuppressionReason, SuppressionSource } from './suppression.types';
import { SuppressionsRepository } from './suppressions.repository';

/** A project's suppression list. Sends read it inside their own statements (`suppressions.sql.ts`). */
@Injectable()
export class SuppressionService {
  constructor(private readonly suppressions: SuppressionsRepository) {}

  /** Idempotent: the first reason recorded for an address is kept. Returns whether it was added now. */
  add(projectId: string, email: string, reason: SuppressionReason, source: SuppressionSource = 'api', manager?: EntityManager): Promise<boolean> {
    return this.suppressions.add(projectId, email, reason, source, manager);
  }

  remove(projectId: string, email: string): Promise<boolean> {
    return this.suppressions.remove(projectId, email);
  }
}
