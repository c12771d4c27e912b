import { Inject, Injectable } from '@nestjs/common';
import { appMetrics } from '../../../platform/metrics/metrics';
import { HandoverWindowsRepository } from '../handover-windows.repository';
import { EMAIL_TRANSPORT, EmailTransport } from '../transports/email-transport';

/**
 * This process's hand-over windows since the last flush (docs/operations.md, "Reliability"): for
 * each claimed email, the milliseconds from its claim to its outcome's write, and how many of
 * those came after the transport accepted it. `mailroom_handover_window_seconds` shows both
 * phases; `HandoverWindowsFlush` adds the sums to `handover_windows` every 5 s.
 */
@Injectable()
export class HandoverWindows {
  private sums = { handovers: 0, windowMs: 0, acceptedMs: 0 };

  constructor(
    private readonly repository: HandoverWindowsRepository,
    @Inject(EMAIL_TRANSPORT) private readonly transport: EmailTransport,
  ) {}

  /** One hand-over: `beforeMs` from the claim to the transport's answer, `afterMs` from there to the outcome's write; `accepted` when the transport took the message. */
  record(beforeMs: number, afterMs: number, accepted: boolean): void {
    this.sums.handovers += 1;
    this.sums.windowMs += beforeMs + afterMs;
    if (accepted) this.sums.acceptedMs += afterMs;
    appMetrics.handoverWindow('transport', beforeMs / 1000);
    appMetrics.handoverWindow('record', afterMs / 1000);
  }

  /** Adds what was measured since the last flush; on failure keeps it for the next one. */
  async flush(): Promise<void> {
    const taken = this.sums;
    if (taken.handovers === 0) return;
    this.sums = { handovers: 0, windowMs: 0, acceptedMs: 0 };
    try {
      await this.repository.add({ transport: this.transport.kind, ...taken });
    } catch (err) {
      this.sums.handovers += taken.handovers;
      this.sums.windowMs += taken.windowMs;
      this.sums.acceptedMs += taken.acceptedMs;
      throw err;
    }
  }
}
