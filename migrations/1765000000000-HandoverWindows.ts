import { MigrationInterface, QueryRunner } from 'typeorm';

export class HandoverWindows1765000000000 implements MigrationInterface {
  name = 'HandoverWindows1765000000000';

  async up(q: QueryRunner): Promise<void> {
    // The at-most-once window of the hand-overs, summed per UTC day and transport
    // (docs/operations.md, "Reliability"): from the claim to the outcome's write, and the part of
    // it after the transport accepted the message. Their ratio is the share of `uncertain` emails
    // that usually arrived, which campaign stats report.
    await q.query(`
      CREATE TABLE handover_windows (
        day date NOT NULL,
        transport text NOT NULL,
        handovers bigint NOT NULL DEFAULT 0,
        window_ms double precision NOT NULL DEFAULT 0,
        accepted_ms double precision NOT NULL DEFAULT 0,
        PRIMARY KEY (day, transport)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE handover_windows`);
  }
}
