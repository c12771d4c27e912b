import { Injectable, OnModuleInit } from '@nestjs/common';
import { metrics } from '../../../platform/metrics/metrics';
import type { StoredEvent } from '../events.types';
import { EventConsumerRegistry } from './event-consumers';

/** The label for a name: system names as they are, per-segment names folded, tracked (the projects' own) names as "custom". */
export function metricName(name: string): string {
  if (/^(email|contact)\.[a-z_.]+$/.test(name)) return name;
  const segment = /^segment\..+\.(entry|exit)$/.exec(name);
  return segment ? `segment.${segment[1]}` : 'custom';
}

const eventsTotal = metrics.counter({
  name: 'mailroom_events_total',
  help: 'Events read from the event outbox by a worker, by name (system names; segment.entry/exit; tracked names count as "custom")',
  labelNames: ['name'] as const,
});

/** The outbox's first consumer: counts events by name in the worker that reads them. */
@Injectable()
export class EventsMetricsConsumer implements OnModuleInit {
  constructor(private readonly registry: EventConsumerRegistry) {}

  onModuleInit(): void {
    this.registry.register({ name: 'metrics', handle: (events) => this.handle(events) });
  }

  async handle(events: StoredEvent[]): Promise<void> {
    const counts = new Map<string, number>();
    for (const event of events) {
      const name = metricName(event.name);
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    for (const [name, n] of counts) eventsTotal.inc({ name }, n);
  }
}
