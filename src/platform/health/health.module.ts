import { BullModule } from '@nestjs/bullmq';
import { Global, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { QUEUES } from '../queues/queues';
import { BuiltinReadinessChecks } from './builtin-checks';
import { HealthController } from './health.controller';
import { ReadinessRegistry } from './readiness.registry';

/** `GET /health`, `GET /health/ready`; exports `ReadinessRegistry` to every module. */
@Global()
@Module({
  imports: [TerminusModule.forRoot({ logger: false }), BullModule.registerQueue({ name: QUEUES.maintenance })],
  controllers: [HealthController],
  providers: [ReadinessRegistry, BuiltinReadinessChecks],
  exports: [ReadinessRegistry],
})
export class HealthModule {}
