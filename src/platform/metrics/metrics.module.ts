import { Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller';

/** `GET /metrics` (Prometheus text). Other modules import `metrics` from `./metrics` directly. */
@Module({ controllers: [MetricsController] })
export class MetricsModule {}
