import { Injectable } from '@nestjs/common';
import type { StoredEvent } from '../events.types';

/**
 * A reader of the event outbox. Every event row (tracked or emitted by any module, in any
 * process) reaches each consumer after its transaction commits, at least once, in ascending
 * event order (so in order per contact). Consumers run in processes whose ROLE runs workers.
 */
export interface EventConsumer {
  /** persisted cursor key */
  name: string;
  /** batch in ascending event id; must be idempotent (at-least-once) */
  handle(events: StoredEvent[]): Promise<void>;
  /**
   * Asked before each round: false skips this consumer for the round (its events wait past its
   * cursor and come in the next batches), e.g. the webhooks fan-out while the API is busy
   * (`apiYieldGate`). Absent: every round.
   */
  mayRun?(): boolean;
}

/** Modules register their consumers here (in `onModuleInit`); the outbox drives them. */
@Injectable()
export class EventConsumerRegistry {
  private readonly consumers = new Map<string, { consumer: EventConsumer; registeredAt: Date }>();

  register(consumer: EventConsumer): void {
    if (this.consumers.has(consumer.name)) throw new Error(`event consumer "${consumer.name}" is registered twice`);
    this.consumers.set(consumer.name, { consumer, registeredAt: new Date() });
  }

  all(): EventConsumer[] {
    return [...this.consumers.values()].map((c) => c.consumer);
  }

  /** A consumer seen for the first time (no cursor row yet) starts with the events created from then on. */
  registeredAt(name: string): Date | undefined {
    return this.consumers.get(name)?.registeredAt;
  }
}
