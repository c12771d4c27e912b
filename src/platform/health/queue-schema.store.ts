import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { QUEUE_SCHEMA } from '../database/embedded-postgres';

/** BullMQ's PostgreSQL backend's migration ledger, read for the queue readiness check. */
@Injectable()
export class QueueSchemaStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The latest migration the queue backend applied (null: none yet); throws while its schema is missing. */
  async version(): Promise<number | null> {
    const rows: { version: number | null }[] = await this.dataSource.query(`SELECT max(version)::int AS version FROM ${QUEUE_SCHEMA}.migration`);
    return rows[0]?.version ?? null;
  }
}
