import { Global, Module } from '@nestjs/common';
import { SetupProbes } from './setup-probes.registry';
import { UsageRegistry } from './usage.registry';

/** Cross-module registries every module can fill (like the readiness checks of `health/`). */
@Global()
@Module({ providers: [UsageRegistry, SetupProbes], exports: [UsageRegistry, SetupProbes] })
export class UsageModule {}
