/**
 * The `/health` poller of hostile-templates.e2e-spec.ts, a process of its own (run through
 * ts-register.js) so that the Jest process's pauses do not count: `GET HEALTH_URL` back to back,
 * 25 ms apart, until told to stop; then, over IPC, every latency (ms) and failure.
 */
import { get } from 'node:http';
import { performance } from 'node:perf_hooks';
import { pause } from './wait';

let running = true;
const latencies: number[] = [];
const failures: string[] = [];
process.on('message', () => (running = false));

const poll = () =>
  new Promise<void>((resolve) => {
    const req = get(process.env.HEALTH_URL!, { agent: false, timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : (failures.push(`status ${res.statusCode}`), resolve())));
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', (err) => (failures.push(err.message), resolve()));
  });

void (async () => {
  await poll();
  failures.length = 0;
  process.send!({ ready: true });
  while (running) {
    const started = performance.now();
    await poll();
    latencies.push(performance.now() - started);
    await pause(25, 'the polls are paced, back to back');
  }
  process.send!({ latencies, failures }, () => process.exit(0));
})();
