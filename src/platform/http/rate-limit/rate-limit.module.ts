import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../../config/config';
import { APP_CONFIG } from '../../../config/config.module';
import { CounterStore } from './counter-store';
import { RateCounter } from './entities/rate-counter.entity';
import { MemoryCounterStore } from './memory-counter-store';
import { PostgresCounterStore } from './postgres-counter.store';
import { RateLimitInterceptor } from './rate-limit.interceptor';
import { RedisCounterStore } from './redis-counter-store';
import { RateCountersPurge } from './worker/rate-counters-purge';

/**
 * Global: the per-project limit applies to every project-authenticated route; `CounterStore` serves
 * other limits (login). Shared counters: Redis when configured, else PostgreSQL; the embedded
 * database belongs to one process, so there the counters stay in memory.
 */
function counterStore(config: AppConfig, db: DataSource): CounterStore {
  if (config.redisUrl) return new RedisCounterStore(config);
  if (config.databaseUrl) return new PostgresCounterStore(db);
  return new MemoryCounterStore();
}

@Global()
@Module({
  // The table exists in every mode (migrations), so its entity is registered whichever store serves.
  imports: [TypeOrmModule.forFeature([RateCounter])],
  providers: [
    {
      provide: CounterStore,
      useFactory: counterStore,
      inject: [APP_CONFIG, getDataSourceToken()],
    },
    { provide: APP_INTERCEPTOR, useClass: RateLimitInterceptor },
    RateCountersPurge,
  ],
  exports: [CounterStore],
})
export class RateLimitModule {}
