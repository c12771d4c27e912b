import { parentPort } from 'node:worker_threads';
import { verdictsOf, type AuthInput } from './mail-auth-verdicts';

/** Host → thread: verify one message; or the answer to one of the thread's DNS questions. */
export type ToThread =
  | { kind: 'verify'; id: number; raw: Uint8Array; input: AuthInput }
  | { kind: 'dns'; id: number; records?: unknown; error?: { message: string; code?: string } };

/** Thread → host: a message's verdicts (or its failure); or a DNS question for the host's resolver. */
export type FromThread =
  | { kind: 'verdicts'; id: number; verdicts?: Awaited<ReturnType<typeof verdictsOf>>; error?: string }
  | { kind: 'dns'; id: number; name: string; type: string };

// DNS goes through the host (its configured resolvers and their cache): the thread only computes.
const pendingDns = new Map<number, { resolve: (records: unknown) => void; reject: (err: Error) => void }>();
let nextDns = 1;
const port = parentPort!;

function resolver(name: string, type: string): Promise<never> {
  const id = nextDns++;
  return new Promise((resolve, reject) => {
    pendingDns.set(id, { resolve: resolve as (records: unknown) => void, reject });
    port.postMessage({ kind: 'dns', id, name, type } satisfies FromThread);
  });
}

port.on('message', (message: ToThread) => {
  if (message.kind === 'dns') {
    const pending = pendingDns.get(message.id);
    pendingDns.delete(message.id);
    if (!pending) return;
    if (message.error) pending.reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
    else pending.resolve(message.records);
    return;
  }
  verdictsOf(Buffer.from(message.raw.buffer, message.raw.byteOffset, message.raw.byteLength), message.input, resolver).then(
    (verdicts) => port.postMessage({ kind: 'verdicts', id: message.id, verdicts } satisfies FromThread),
    (err: unknown) => port.postMessage({ kind: 'verdicts', id: message.id, error: err instanceof Error ? err.message : String(err) } satisfies FromThread),
  );
});
