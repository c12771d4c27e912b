import { Injectable } from '@nestjs/common';

/** Each readiness check must answer within this, or it counts as down. */
export const READINESS_CHECK_TIMEOUT_MS = 3_000;

/** Resolves (optionally with details) when the dependency is usable; throws when it is not. */
export type ReadinessCheck = () => Promise<Record<string, unknown> | void>;

/**
 * Extra checks for `GET /health/ready`, contributed by feature modules at start, e.g. the email
 * transport: `constructor(readiness: ReadinessRegistry) { readiness.register('transport', () => this.verify()); }`.
 * Registering a name again replaces the earlier check (the SENDING transport replaces the outbox one).
 */
@Injectable()
export class ReadinessRegistry {
  private readonly checks = new Map<string, ReadinessCheck>();

  register(name: string, check: ReadinessCheck): void {
    this.checks.set(name, check);
  }

  get(name: string): ReadinessCheck | undefined {
    return this.checks.get(name);
  }

  has(name: string): boolean {
    return this.checks.has(name);
  }

  unregister(name: string): void {
    this.checks.delete(name);
  }

  entries(): [string, ReadinessCheck][] {
    return [...this.checks.entries()];
  }
}
