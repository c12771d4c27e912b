import { Global, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { BuiltinReadinessChecks } from './builtin-checks';
import { HealthController } from './health.controller';
import { QueueSchemaStore } from './queue-schema.store';
import { ReadinessRegistry } from './readiness.registry';
import { StuckWorkersWatch } from './stuck-workers';

/** `GET /health`, `GET /health/ready`; exports `ReadinessRegistry` to every module. */
@Global()
@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController],
  providers: [ReadinessRegistry, QueueSchemaStore, BuiltinReadinessChecks, StuckWorkersWatch],
  exports: [ReadinessRegistry],
})
export class HealthModule {}
