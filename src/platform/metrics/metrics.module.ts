import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { MetricsController } from './metrics.controller';
import { QueueDepthCollector } from './queue-depth.collector';

/** `GET /metrics` (Prometheus text). Other modules import `metrics`/`appMetrics` from `./metrics` directly. */
@Module({ imports: [DiscoveryModule], controllers: [MetricsController], providers: [QueueDepthCollector] })
export class MetricsModule {}
