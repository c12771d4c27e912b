import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import type { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { logger } from '../logging/logger';
import { SystemMailer, SystemMessage } from './system-mailer';

/** Writes each message as `$DATA_DIR/outbox/<id>.eml`; nothing leaves the machine. */
@Injectable()
export class OutboxSystemMailer extends SystemMailer {
  private readonly composer = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  private readonly log = logger('system-mail');

  constructor(@InjectConfig() private readonly config: AppConfig) {
    super();
  }

  async send(msg: SystemMessage): Promise<void> {
    const id = randomUUID();
    const info = await this.composer.sendMail({
      from: this.config.email.systemFrom,
      to: msg.to,
      subject: msg.subject,
      html: msg.html,
      text: msg.text,
      messageId: `<${id}@mailroom>`,
      headers: { 'X-Mailroom-Email-Id': id },
    });
    const dir = join(this.config.dataDir, 'outbox');
    await mkdir(dir, { recursive: true });
    // Written under a temporary name and renamed, so readers never see half a message.
    const tmp = join(dir, `.${id}.tmp`);
    await writeFile(tmp, info.message as Buffer);
    await rename(tmp, join(dir, `${id}.eml`));
    this.log.info({ emailId: id, subject: msg.subject }, 'system mail written to the outbox');
  }
}
