import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect as tlsConnect } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import { loadConfig } from '../../config/config';
import { configureLogger } from '../../platform/logging/logger';
import { ReadinessRegistry } from '../../platform/health/readiness.registry';
import { metricsRegistry } from '../../platform/metrics/metrics';
import { SMTP_MAX_MESSAGE_BYTES, SmtpListeners } from './smtp-listeners';
import { smtpAccepted, smtpReply } from './smtp-reply';
import { SmtpTls } from './smtp-tls';

describe('SmtpListeners', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-smtp-'));
  const config = loadConfig({ DATA_DIR: dataDir, APP_SECRET: 'x'.repeat(32), HOST: '127.0.0.1', LOG_LEVEL: 'silent', SMTP_IDLE_TIMEOUT_MS: '30000' });
  const readiness = new ReadinessRegistry();
  const listeners = new SmtpListeners(config, new SmtpTls(config), readiness);
  const received: Buffer[] = [];
  let port = 0;

  beforeAll(async () => {
    configureLogger('silent');
    const listener = await listeners.open({
      name: 'spec',
      port: 0,
      options: { authOptional: true },
      onRcptTo: async (address) => {
        if (address.address.endsWith('@refused.test')) throw smtpReply(550, '5.7.1', `Domain refused.test is not ours`, 'recipient_domain');
      },
      onMessage: async (message) => {
        received.push(message);
        return smtpAccepted('Ok: queued as spec');
      },
    });
    port = listener!.port;
  });
  afterAll(async () => {
    await listeners.onModuleDestroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const transport = () => createTransport({ host: '127.0.0.1', port, secure: false, tls: { rejectUnauthorized: false } });

  it('accepts a message over STARTTLS with the generated certificate and answers the handler text', async () => {
    const info = await transport().sendMail({ from: 'a@example.com', to: 'b@example.com', subject: 'Hi', text: 'Body' });
    expect(info.response).toBe('250 2.0.0 Ok: queued as spec');
    expect(received.at(-1)!.toString()).toContain('Subject: Hi');
  });

  it('answers a refusal with its code and enhanced code, and counts it by reason', async () => {
    await expect(transport().sendMail({ from: 'a@example.com', to: 'x@refused.test', text: 'x' })).rejects.toMatchObject({ responseCode: 550, response: '550 5.7.1 Domain refused.test is not ours' });
    const metric = await metricsRegistry.getSingleMetric('mailroom_smtp_rejections_total')!.get();
    expect(metric.values.find((v) => v.labels.listener === 'spec' && v.labels.reason === 'recipient_domain')?.value).toBe(1);
  });

  it('refuses a message past 40 MB with 552 5.3.4 and hands nothing over', async () => {
    const before = received.length;
    const big = 'x'.repeat(1023) + '\n';
    const text = big.repeat(Math.ceil(SMTP_MAX_MESSAGE_BYTES / 1024) + 10);
    await expect(transport().sendMail({ from: 'a@example.com', to: 'b@example.com', text })).rejects.toMatchObject({ responseCode: 552, response: expect.stringMatching(/^552 5\.3\.4 /) });
    expect(received.length).toBe(before);
  });

  it('reports the listener on readiness, and an implicit-TLS listener presents the certificate kept in $DATA_DIR', async () => {
    const check = readiness.entries().find(([name]) => name === 'smtp-spec');
    await expect(check![1]()).resolves.toMatchObject({ port });
    const again = await new SmtpTls(config).load();
    const tls = await listeners.open({ name: 'spec-tls', port: 0, implicitTls: true, options: { authOptional: true }, onMessage: async () => smtpAccepted('Ok') });
    const presented = await new Promise<string>((resolve, reject) => {
      const socket = tlsConnect({ host: '127.0.0.1', port: tls!.port, rejectUnauthorized: false }, () => {
        resolve(socket.getPeerX509Certificate()!.toString());
        socket.destroy();
      });
      socket.on('error', reject);
    });
    expect(new X509Certificate(again.cert).toString()).toBe(presented);
  });
});
