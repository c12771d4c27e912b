import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** The sums one process adds for one transport since its last flush. */
export interface HandoverWindowSums {
  transport: string;
  handovers: number;
  windowMs: number;
  acceptedMs: number;
}

/** How far back the share of `uncertain` emails that arrived is measured. */
const SHARE_DAYS = 30;

/**
 * `handover_windows`: the hand-overs' at-most-once windows, summed per UTC day and transport
 * (docs/operations.md, "Reliability"). A crash lands at a moment no email chooses, so an email it
 * interrupts was caught after the transport's acceptance with the probability that acceptance
 * time takes of the window: the share of `uncertain` emails that usually arrived is
 * Σ accepted / Σ window.
 */
@Injectable()
export class HandoverWindowsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async add(sums: HandoverWindowSums): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO handover_windows (day, transport, handovers, window_ms, accepted_ms)
       VALUES ((now() AT TIME ZONE 'UTC')::date, $1, $2, $3, $4)
       ON CONFLICT (day, transport) DO UPDATE
          SET handovers = handover_windows.handovers + excluded.handovers,
              window_ms = handover_windows.window_ms + excluded.window_ms,
              accepted_ms = handover_windows.accepted_ms + excluded.accepted_ms`,
      [sums.transport, sums.handovers, sums.windowMs, sums.acceptedMs],
    );
  }

  /** Σ accepted / Σ window over the last 30 days, all transports; null before any hand-over was measured. */
  async acceptedShare(): Promise<number | null> {
    const rows: Array<{ share: number | null }> = await this.dataSource.query(
      `SELECT sum(accepted_ms) / nullif(sum(window_ms), 0) AS share
         FROM handover_windows WHERE day > (now() AT TIME ZONE 'UTC')::date - $1::int`,
      [SHARE_DAYS],
    );
    const share = rows[0]?.share;
    return share === null || share === undefined ? null : Math.round(Number(share) * 100) / 100;
  }
}
