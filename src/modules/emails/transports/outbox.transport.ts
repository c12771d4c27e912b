import { mkdir, rename, writeFile, access } from 'node:fs/promises';
import { constants } from 'node:fs';
import { join } from 'node:path';
import type { EmailTransport, OutgoingMessage, TransportResult } from './email-transport';

/** Development transport: each message becomes `$DATA_DIR/outbox/<emailId>.eml`, counted as delivered. */
export class OutboxTransport implements EmailTransport {
  readonly kind = 'outbox' as const;
  readonly signsWithOwnDkim = true;
  private dirReady: Promise<unknown> | undefined;

  constructor(private readonly dir: string) {}

  async send(message: OutgoingMessage): Promise<TransportResult> {
    this.dirReady ??= mkdir(this.dir, { recursive: true });
    await this.dirReady;
    // Written under a temporary name and renamed, so readers never see half a message.
    const tmp = join(this.dir, `.${message.emailId}.tmp`);
    await writeFile(tmp, message.raw);
    await rename(tmp, join(this.dir, `${message.emailId}.eml`));
    return { providerMessageId: null, delivered: true };
  }

  async check(): Promise<Record<string, unknown>> {
    await mkdir(this.dir, { recursive: true });
    await access(this.dir, constants.W_OK);
    return { transport: 'outbox' };
  }

  async close(): Promise<void> {}
}
