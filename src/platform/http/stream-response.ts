import type { Response } from 'express';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { logger } from '../logging/logger';

const log = logger('http');

/**
 * Answers 200 with `body` piped into the response under back-pressure (a slow client slows the
 * reads). A body that fails part-way resets the connection, so a client never takes a cut
 * document for a whole one; the failure is logged with the request id. A client that goes away
 * ends the reads. Handlers answer through `@Res()` with it: Nest's `StreamableFile` is recognised
 * by `instanceof`, which a second copy of @nestjs/common (ESM and CJS side by side, as under jest) defeats.
 */
export function sendStream(res: Response, body: Readable, headers: Record<string, string>): void {
  res.status(200).set(headers);
  pipeline(body, res).catch((err: unknown) => {
    if ((err as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    log.error({ err, requestId: (res.req as { id?: string }).id }, 'a streamed answer failed part-way; the connection was reset');
  });
}
