import { tmpdir } from 'node:os';
import { ConfigError, loadConfig } from './config';

const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: tmpdir(), APP_SECRET: 'x'.repeat(32), ...env });

describe('loadConfig: TRUST_PROXY', () => {
  it('trusts no proxy by default', () => {
    expect(load({}).trustProxy).toBe(0);
    expect(load({ TRUST_PROXY: '' }).trustProxy).toBe(0);
  });

  it('takes a hop count', () => {
    expect(load({ TRUST_PROXY: '0' }).trustProxy).toBe(0);
    expect(load({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
  });

  it('takes comma-separated addresses, CIDR ranges and the named ranges', () => {
    expect(load({ TRUST_PROXY: '127.0.0.1' }).trustProxy).toEqual(['127.0.0.1']);
    expect(load({ TRUST_PROXY: ' 10.0.0.0/8 , ::1, fd00::/8,loopback, uniquelocal ' }).trustProxy).toEqual(['10.0.0.0/8', '::1', 'fd00::/8', 'loopback', 'uniquelocal']);
  });

  it.each(['true', 'yes', '-1', '1.5', '300.1.1.1', '10.0.0.0/33', '::1/129', '127.0.0.1,,10.0.0.1', 'proxy.example.com', '127.1', '65', 'fe80::1%eth0'])(
    'rejects %j with one line naming the variable',
    (value) => {
      expect(() => load({ TRUST_PROXY: value })).toThrow(ConfigError);
      expect(() => load({ TRUST_PROXY: value })).toThrow(/^TRUST_PROXY /);
    },
  );
});

describe('loadConfig: APP_SECRET', () => {
  it('refuses the example value that docker/compose.yml used to default to', () => {
    expect(() => load({ APP_SECRET: 'change-me-to-at-least-32-random-characters' })).toThrow(ConfigError);
    expect(() => load({ APP_SECRET: 'change-me-to-at-least-32-random-characters' })).toThrow(/^APP_SECRET /);
  });
});

describe('loadConfig: PASSWORD_HASH_MEMORY_KIB', () => {
  it("defaults to argon2's 64 MiB and takes 1 MiB to 1 GiB", () => {
    expect(load({}).passwordHashMemoryKib).toBe(65_536);
    expect(load({ PASSWORD_HASH_MEMORY_KIB: '19456' }).passwordHashMemoryKib).toBe(19_456);
    expect(() => load({ PASSWORD_HASH_MEMORY_KIB: '512' })).toThrow(/PASSWORD_HASH_MEMORY_KIB/);
    expect(() => load({ PASSWORD_HASH_MEMORY_KIB: 'lots' })).toThrow(/PASSWORD_HASH_MEMORY_KIB/);
  });
});

describe('loadConfig: OpenTelemetry', () => {
  it('is off unless an OTLP endpoint or a traces exporter is set', () => {
    expect(load({}).telemetry).toMatchObject({ enabled: false, metrics: false, serviceName: 'mailroom' });
    expect(load({ OTEL_TRACES_EXPORTER: 'none' }).telemetry.enabled).toBe(false);
    expect(load({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).telemetry).toMatchObject({ enabled: true, metrics: true, metricExportIntervalMs: 60_000 });
    expect(load({ OTEL_TRACES_EXPORTER: 'console' }).telemetry.enabled).toBe(true);
  });

  it('follows OTEL_SDK_DISABLED, OTEL_METRICS_EXPORTER=none and OTEL_SERVICE_NAME', () => {
    expect(load({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }).telemetry.enabled).toBe(false);
    expect(load({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_METRICS_EXPORTER: 'none' }).telemetry.metrics).toBe(false);
    expect(load({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SERVICE_NAME: 'mail-eu' }).telemetry.serviceName).toBe('mail-eu');
  });

  it('refuses OTLP over gRPC (the export is OTLP/HTTP)', () => {
    expect(() => load({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow('OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json');
  });
});

describe('loadConfig: SMTP listeners', () => {
  it('keeps every listener off unless its port is set, with the defaults of the contract', () => {
    expect(load({}).smtp).toEqual({ submissionPort: undefined, submissionTlsPort: undefined, inboundPort: undefined, tls: undefined, allowInsecureAuth: false, maxRecipients: 50, idleTimeoutMs: 60_000, sessionTimeoutMs: 1_800_000, inbound: { maxMessageBytes: 26_214_400, maxRecipients: 100, perSenderPerMinute: 20, perClientPerMinute: 60 } });
    expect(load({ SMTP_SUBMISSION_PORT: '587', SMTP_SUBMISSION_TLS_PORT: '465', SMTP_INBOUND_PORT: '0' }).smtp).toMatchObject({ submissionPort: 587, submissionTlsPort: 465, inboundPort: 0 });
  });

  it('takes the certificate and key together only', () => {
    expect(load({ SMTP_TLS_CERT_FILE: '/tls/cert.pem', SMTP_TLS_KEY_FILE: '/tls/key.pem' }).smtp.tls).toEqual({ certFile: '/tls/cert.pem', keyFile: '/tls/key.pem' });
    expect(() => load({ SMTP_TLS_CERT_FILE: '/tls/cert.pem' })).toThrow('SMTP_TLS_CERT_FILE and SMTP_TLS_KEY_FILE must be set together');
  });

  it.each([['SMTP_SUBMISSION_PORT', '70000'], ['SMTP_MAX_RECIPIENTS', '0'], ['SMTP_ALLOW_INSECURE_AUTH', 'maybe']])('refuses %s=%j with one line naming it', (name, value) => {
    expect(() => load({ [name]: value })).toThrow(new RegExp(`^${name} `));
  });
});

describe('loadConfig: yielding the CPU to the API', () => {
  it('waits deliveries 2 s at most and lowers a worker process by 10 by default; 0 turns either off', () => {
    expect(load({}).webhooks.yieldMaxMs).toBe(2_000);
    expect(load({}).workerNice).toBe(10);
    expect(load({ WEBHOOK_YIELD_MAX_MS: '0', WORKER_NICE: '0' })).toMatchObject({ webhooks: { yieldMaxMs: 0 }, workerNice: 0 });
  });

  it.each([['WORKER_NICE', '20'], ['WORKER_NICE', '-5'], ['WEBHOOK_YIELD_MAX_MS', '60001']])('refuses %s=%j with one line naming it', (name, value) => {
    expect(() => load({ [name]: value })).toThrow(new RegExp(`^${name} `));
  });
});
