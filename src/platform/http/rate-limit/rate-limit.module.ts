import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../../config/config';
import { APP_CONFIG } from '../../../config/config.module';
import { CounterStore } from './counter-store';
import { PostgresCounterStore } from './postgres-counter-store';
import { RateLimitInterceptor } from './rate-limit.interceptor';
import { RedisCounterStore } from './redis-counter-store';

/** Global: the per-project limit applies to every project-authenticated route; `CounterStore` serves other limits (login). */
@Global()
@Module({
  providers: [
    {
      provide: CounterStore,
      useFactory: (config: AppConfig, db: DataSource) => (config.redisUrl ? new RedisCounterStore(config) : new PostgresCounterStore(db)),
      inject: [APP_CONFIG, getDataSourceToken()],
    },
    { provide: APP_INTERCEPTOR, useClass: RateLimitInterceptor },
  ],
  exports: [CounterStore],
})
export class RateLimitModule {}
