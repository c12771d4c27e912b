import { DynamicModule, Global, Module } from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source-options';
import { StatementRunner } from './statement-runner';
import { DatabaseTraits } from './database-traits';
import { EmbeddedMaintenance } from './embedded-maintenance';
import { SingletonLocks } from './singleton-locks';
import { PriorityLane } from './priority-lane';
import { HistoryPartitions } from './history-partitions';
import { HistoryPartitionsAhead } from './history-partitions-ahead';

@Global()
@Module({})
export class DatabaseModule {
  /** `embedded`: the database is the in-process PGlite (changes how statements are prepared, `DatabaseTraits`, and adds `EmbeddedMaintenance`). */
  static forRoot(databaseUrl: string, poolSize: number, embedded: boolean, timeouts: { connectMs: number; readMs: number }): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [TypeOrmModule.forRoot({ ...dataSourceOptions(databaseUrl, poolSize, timeouts.connectMs, timeouts.readMs), autoLoadEntities: true, migrations: [] })],
      providers: [
        { provide: StatementRunner, useFactory: (dataSource: DataSource) => new StatementRunner(dataSource, embedded), inject: [getDataSourceToken()] },
        { provide: SingletonLocks, useValue: new SingletonLocks(databaseUrl, embedded) },
        { provide: DatabaseTraits, useValue: new DatabaseTraits({ concurrentTransactions: !embedded }) },
        { provide: PriorityLane, useValue: new PriorityLane(databaseUrl, PriorityLane.SIZE, timeouts) },
        HistoryPartitions,
        HistoryPartitionsAhead,
        // PGlite has no autovacuum: the service does its work (PostgreSQL does its own).
        ...(embedded ? [EmbeddedMaintenance] : []),
      ],
      exports: [StatementRunner, DatabaseTraits, SingletonLocks, PriorityLane, HistoryPartitions],
    };
  }
}
