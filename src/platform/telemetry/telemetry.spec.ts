import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemEnv } from '../../../test/support/service-process';

const ROOT = join(__dirname, '..', '..', '..');

/** Loads the whole application's module graph the way main.ts does, then lists the OpenTelemetry packages in memory. */
function loadedOtelPackages(env: Record<string, string>): string[] {
  const script = `
    const { loadConfig } = require('./src/config/config');
    const { startTelemetry } = require('./src/platform/telemetry/telemetry');
    startTelemetry(loadConfig().telemetry, 'all');
    require('./src/platform/runtime');
    const names = new Set(Object.keys(require.cache).flatMap((f) => /node_modules\\/(@opentelemetry\\/[^/]+)/.exec(f)?.[1] ?? []));
    process.stdout.write(JSON.stringify([...names]), () => process.exit(0));
  `;
  const out = execFileSync(process.execPath, ['-r', './test/support/ts-register.js', '-e', script], {
    cwd: ROOT,
    env: { ...systemEnv(), DATA_DIR: tmpdir(), APP_SECRET: 'x'.repeat(32), ...env },
    encoding: 'utf8',
  });
  return JSON.parse(out) as string[];
}

describe('telemetry loading', () => {
  it('loads no OpenTelemetry SDK, exporter or instrumentation when OTEL_* is unset', () => {
    const loaded = loadedOtelPackages({});
    // prom-client requires @opentelemetry/api itself (for exemplars); nothing else may load.
    expect(loaded.filter((name) => name !== '@opentelemetry/api')).toEqual([]);
  }, 60_000);

  it('loads the SDK and the instrumentations when OTEL_EXPORTER_OTLP_ENDPOINT is set', () => {
    const loaded = loadedOtelPackages({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_METRIC_EXPORT_INTERVAL: '3600000' });
    expect(loaded).toEqual(expect.arrayContaining(['@opentelemetry/sdk-node', '@opentelemetry/instrumentation-pg', '@opentelemetry/instrumentation-http', '@opentelemetry/exporter-metrics-otlp-http']));
  }, 60_000);
});
