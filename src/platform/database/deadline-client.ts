import { Client } from 'pg';
import { DeadlineExceededError, deadlineRemainingMs } from '../http/request-deadline';

type Callback = (err: Error | null, res?: unknown) => void;
type RawQuery = (this: Client, ...args: unknown[]) => unknown;

/** pg's own read timeout: the statement was sent (or queued) and no answer came in time. */
const READ_TIMEOUT = 'Query read timeout';

/**
 * Inside an API request, bounds each statement by the time left before the request's deadline
 * and refuses to start one after it; outside one, the client's read timeout (DATABASE_READ_TIMEOUT_MS)
 * bounds it. A statement that timed out leaves its connection in an unknown state (the server may
 * still be reading it, or a partition left it dead), so the connection is closed: the pool drops
 * it, and nothing sent on it can run on later.
 */
function boundedQuery(this: Client, ...args: unknown[]): unknown {
  const raw = Client.prototype.query as unknown as RawQuery;
  const [config, values, callback] = args;
  const remaining = deadlineRemainingMs();
  // Streams (`submit()`) manage their own reads.
  if (typeof (config as { submit?: unknown })?.submit === 'function') return raw.apply(this, args);
  const done = (typeof values === 'function' ? values : typeof callback === 'function' ? callback : undefined) as Callback | undefined;
  if (remaining !== undefined && remaining <= 0) {
    const err = new DeadlineExceededError();
    if (done) return void process.nextTick(() => done(err));
    return Promise.reject(err);
  }
  // Outside a request, the client's own read timeout (`query_timeout`, DATABASE_READ_TIMEOUT_MS) applies, if any.
  const bounded = remaining === undefined ? config : typeof config === 'string' ? { text: config, query_timeout: remaining } : { ...(config as object), query_timeout: remaining };
  const closeOnTimeout = (err: unknown) => {
    if ((err as Error | null)?.message !== READ_TIMEOUT) return;
    // Not queryable from now on, so that the pool drops it when it comes back rather than lending it again before its socket reports the close.
    const client = this as unknown as { _queryable: boolean; connection: { stream: { destroy(): void } } };
    client._queryable = false;
    client.connection.stream.destroy();
  };
  if (done) {
    const wrapped: Callback = (err, res) => (closeOnTimeout(err), done(err, res));
    return typeof values === 'function' ? raw.call(this, bounded, wrapped) : raw.call(this, bounded, values, wrapped);
  }
  const result = raw.call(this, bounded, values) as Promise<unknown>;
  result.catch(closeOnTimeout);
  return result;
}

/** The pool's client class (`extra.Client`). */
export class DeadlineBoundClient extends Client {
  override query = boundedQuery as unknown as Client['query'];
}
