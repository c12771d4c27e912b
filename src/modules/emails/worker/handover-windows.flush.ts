import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { PeriodicWorker } from '../../../platform/queues/periodic-worker';
import { HandoverWindows } from '../engine/handover-windows';

/** Every 5 s in processes that run workers, and once more on shutdown: this process's hand-over windows into `handover_windows`. */
@Injectable()
export class HandoverWindowsFlush extends PeriodicWorker {
  constructor(
    @InjectConfig() config: AppConfig,
    private readonly windows: HandoverWindows,
  ) {
    super(config, 'handover-windows', 5_000);
  }

  protected round(): Promise<void> {
    return this.windows.flush();
  }

  override async onModuleDestroy(): Promise<void> {
    await super.onModuleDestroy();
    await this.windows.flush().catch(() => undefined);
  }
}
