import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { logger } from '../../../platform/logging/logger';
import { DnsResolver } from '../../domains';
import type { FromThread, ToThread } from './mail-auth-thread';
import { TEMPERROR, type AuthInput, type AuthVerdicts } from './mail-auth-verdicts';

export type { AuthVerdicts } from './mail-auth-verdicts';

/** Past this, a message's verification is given up (`temperror`) and the thread is replaced. */
const VERIFY_WALL_MS = 30_000;
/** Library output kept for the debug log, per line. */
const OUTPUT_LINE_MAX = 200;

/** The thread's entry beside this file: `.js` in dist/, `.ts` from the sources (Jest, ts-register), compiled by SWC. */
function threadWorker(): Worker {
  const ext = extname(__filename);
  const file = join(__dirname, `mail-auth-thread${ext}`);
  const options = { stdout: true, stderr: true } as const;
  if (ext !== '.ts') return new Worker(file, options);
  const register = join(__dirname, '..', '..', '..', '..', 'test', 'support', 'ts-register.js');
  return new Worker(`require(${JSON.stringify(register)}); require(${JSON.stringify(file)});`, { ...options, eval: true });
}

interface Pending {
  resolve: (verdicts: AuthVerdicts) => void;
  timer: NodeJS.Timeout;
}

/**
 * SPF, DKIM and DMARC verdicts of received mail, computed in a worker thread so a hostile
 * message (a large body, many DKIM signatures) costs that thread's time, never the API's event
 * loop. At most the first 5 DKIM signatures are verified. DNS questions come back to this
 * thread's resolver. Whatever the library prints goes to the debug log, never to stdout. A
 * check that cannot complete (an error, over `VERIFY_WALL_MS`) reads `temperror`; it never
 * fails the delivery. The thread starts on first use and is stopped with the application.
 */
@Injectable()
export class MailAuth implements OnApplicationShutdown {
  private readonly log = logger('inbound-auth');
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(private readonly dns: DnsResolver) {}

  verdicts(raw: Buffer, input: AuthInput): Promise<AuthVerdicts> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise<AuthVerdicts>((resolve) => {
      const timer = setTimeout(() => {
        this.log.warn({ wallMs: VERIFY_WALL_MS }, 'authenticating a received message took too long: temperror, the thread is replaced');
        this.stop(worker);
      }, VERIFY_WALL_MS);
      this.pending.set(id, { resolve, timer });
      worker.ref();
      worker.postMessage({ kind: 'verify', id, raw, input } satisfies ToThread);
    });
  }

  onApplicationShutdown(): void {
    if (this.worker) this.stop(this.worker);
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = threadWorker();
    this.worker = worker;
    for (const stream of [worker.stdout, worker.stderr]) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => this.log.debug({ output: chunk.trim().slice(0, OUTPUT_LINE_MAX) }, 'mail authentication library output'));
    }
    worker.on('message', (message: FromThread) => (message.kind === 'dns' ? this.answerDns(worker, message) : this.settle(message.id, message.verdicts, message.error)));
    worker.on('error', (err) => {
      this.log.warn({ err }, 'the mail authentication thread failed');
      this.stop(worker);
    });
    worker.on('exit', () => this.stop(worker));
    worker.unref();
    return worker;
  }

  private answerDns(worker: Worker, question: Extract<FromThread, { kind: 'dns' }>): void {
    this.dns.resolve(question.name, question.type).then(
      (records) => worker.postMessage({ kind: 'dns', id: question.id, records } satisfies ToThread),
      (err: NodeJS.ErrnoException) => worker.postMessage({ kind: 'dns', id: question.id, error: { message: err.message, code: err.code } } satisfies ToThread),
    );
  }

  private settle(id: number, verdicts: AuthVerdicts | undefined, error?: string): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    if (!verdicts) this.log.warn({ error }, 'authenticating a received message failed');
    pending.resolve(verdicts ?? TEMPERROR);
    if (this.pending.size === 0) this.worker?.unref();
  }

  /** The thread is gone (or made to go): every message it had reads temperror; the next one starts another. */
  private stop(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = null;
    void worker.terminate();
    for (const id of [...this.pending.keys()]) this.settle(id, undefined, 'the mail authentication thread stopped');
  }
}
