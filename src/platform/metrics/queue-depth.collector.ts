import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { Queue } from 'bullmq';
import { setQueueDepthSource } from './metrics';

const STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/** Feeds `mailroom_queue_depth` from the queues this process registered (every role has them). */
@Injectable()
export class QueueDepthCollector implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(private readonly discovery: DiscoveryService) {}

  onApplicationBootstrap(): void {
    const queues = this.discovery
      .getProviders()
      .map((wrapper) => wrapper.instance as unknown)
      .filter((instance): instance is Queue => instance instanceof Queue);
    if (queues.length === 0) return;
    setQueueDepthSource(async () => {
      const counts = await Promise.all(queues.map(async (queue) => ({ queue: queue.name, counts: await queue.getJobCounts(...STATES) })));
      return counts.flatMap(({ queue, counts: byState }) => STATES.map((state) => ({ queue, state, count: byState[state] ?? 0 })));
    });
  }

  onApplicationShutdown(): void {
    setQueueDepthSource(undefined);
  }
}
