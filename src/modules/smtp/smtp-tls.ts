import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSecureContext } from 'node:tls';
import { Injectable } from '@nestjs/common';
import { generate } from 'selfsigned';
import type { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { logger } from '../../platform/logging/logger';

export interface TlsMaterial {
  key: string;
  cert: string;
}

/** Where the generated pair lives when no certificate is configured: one PEM file (key, then certificate) written by rename, so processes starting together read a whole one. */
const GENERATED_FILE = 'smtp-selfsigned.pem';
const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]+?-----END \1-----\r?\n?/g;

/**
 * The certificate of every SMTP listener: `SMTP_TLS_CERT_FILE` + `SMTP_TLS_KEY_FILE`, or a
 * self-signed pair generated once into `$DATA_DIR` (reused across restarts, with a warning).
 * `current()` stats the files and re-reads them when they changed (the listeners call it per
 * connection, so a renewed certificate serves the next session without a restart); a file that
 * cannot be read or a pair that does not match keeps the previous material.
 */
@Injectable()
export class SmtpTls {
  private readonly log = logger('smtp-tls');
  private files?: { cert: string; key: string };
  private material?: TlsMaterial & { stamp: string };

  constructor(@InjectConfig() private readonly config: AppConfig) {}

  /** Resolves the files (generating the self-signed pair when needed) and reads them; call before a listener opens. */
  async load(): Promise<TlsMaterial> {
    if (!this.files) {
      const tls = this.config.smtp.tls;
      if (tls) {
        this.files = { cert: tls.certFile, key: tls.keyFile };
      } else {
        const file = join(this.config.dataDir, GENERATED_FILE);
        if (!exists(file)) await this.generate(file);
        this.files = { cert: file, key: file };
        this.log.warn({ file }, 'SMTP listeners use a self-signed certificate: clients must accept it explicitly; set SMTP_TLS_CERT_FILE and SMTP_TLS_KEY_FILE for a trusted one');
      }
    }
    const material = this.current();
    if (!material) throw new Error(`SMTP TLS: cannot read ${this.files.cert} and ${this.files.key}`);
    return material;
  }

  /** The material as the files are now: `changed` is true when they were re-read since the last call. */
  current(): (TlsMaterial & { changed: boolean }) | undefined {
    if (!this.files) return undefined;
    let stamp: string;
    try {
      stamp = [this.files.cert, this.files.key].map((f) => { const s = statSync(f); return `${s.mtimeMs}:${s.size}`; }).join('|');
    } catch (err) {
      if (this.material) this.log.warn({ err }, 'SMTP TLS files unreadable; keeping the certificate already loaded');
      return this.material && { ...this.material, changed: false };
    }
    if (this.material?.stamp === stamp) return { ...this.material, changed: false };
    try {
      const cert = pemBlocks(readFileSync(this.files.cert, 'utf8'), (label) => label.includes('CERTIFICATE'));
      const key = pemBlocks(readFileSync(this.files.key, 'utf8'), (label) => label.includes('PRIVATE KEY'));
      if (!cert || !key) throw new Error('no certificate or no private key in the PEM files');
      createSecureContext({ cert, key }); // throws when the key does not match the certificate
      this.material = { cert, key, stamp };
      this.log.info({ cert: this.files.cert }, 'SMTP TLS certificate loaded');
      return { cert, key, changed: true };
    } catch (err) {
      this.log.warn({ err }, 'SMTP TLS files could not be read; keeping the certificate already loaded');
      return this.material && { ...this.material, changed: false };
    }
  }

  private async generate(file: string): Promise<void> {
    const host = new URL(this.config.publicUrl).hostname || 'localhost';
    const notAfterDate = new Date(Date.now() + 10 * 365 * 86_400_000);
    const pems = await generate([{ name: 'commonName', value: host }], {
      keySize: 2048,
      algorithm: 'sha256',
      notAfterDate,
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: host }, { type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] }],
    });
    mkdirSync(this.config.dataDir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${pems.private.trim()}\n${pems.cert.trim()}\n`, { mode: 0o600 });
    renameSync(tmp, file);
    this.log.warn({ file, host }, 'generated a self-signed certificate for the SMTP listeners');
  }
}

function exists(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}

/** The PEM blocks of a file whose label passes `keep`, joined (a certificate file may hold its chain). */
function pemBlocks(text: string, keep: (label: string) => boolean): string | undefined {
  const blocks = [...text.matchAll(PEM_BLOCK)].filter((m) => keep(m[1])).map((m) => m[0].trim());
  return blocks.length ? blocks.join('\n') + '\n' : undefined;
}
