import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { loadConfig } from '../../config/config';
import { configureLogger } from '../../platform/logging/logger';
import { SmtpTls } from './smtp-tls';

describe('SmtpTls with SMTP_TLS_CERT_FILE and SMTP_TLS_KEY_FILE', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mailroom-tls-'));
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  const config = loadConfig({ DATA_DIR: dir, APP_SECRET: 'x'.repeat(32), SMTP_TLS_CERT_FILE: certFile, SMTP_TLS_KEY_FILE: keyFile });
  let stamp = Date.now() / 1000;
  const write = async (cn: string) => {
    const pems = await generate([{ name: 'commonName', value: cn }], { keySize: 2048, algorithm: 'sha256' });
    writeFileSync(certFile, pems.cert);
    writeFileSync(keyFile, pems.private);
    // A distinct mtime each time, however fast the writes follow each other.
    stamp += 10;
    for (const file of [certFile, keyFile]) utimesSync(file, stamp, stamp);
    return pems;
  };

  beforeAll(() => configureLogger('silent'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the files, re-reads them when they change, and keeps the last good pair when they break', async () => {
    const first = await write('one.example.com');
    const tls = new SmtpTls(config);
    expect((await tls.load()).cert.trim()).toBe(first.cert.trim());
    expect(tls.current()).toMatchObject({ changed: false });

    const renewed = await write('two.example.com');
    const after = tls.current()!;
    expect(after.changed).toBe(true);
    expect(after.cert.trim()).toBe(renewed.cert.trim());

    // A certificate whose key does not match (a renewal half written) keeps the previous pair.
    const other = await generate([{ name: 'commonName', value: 'three.example.com' }], { keySize: 2048, algorithm: 'sha256' });
    writeFileSync(keyFile, other.private);
    stamp += 10;
    utimesSync(keyFile, stamp, stamp);
    expect(tls.current()).toMatchObject({ changed: false, cert: after.cert });
  });
});
