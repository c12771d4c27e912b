import type { DiscoveryService } from '@nestjs/core';
import type { Worker } from 'bullmq';
import type { AppConfig } from '../../config/config';
import { WorkersService } from './workers.service';

/** A started worker as `unableWorkers` reads it: its run loop, closing, and its Redis connections' clients. */
function fakeWorker(name: string, state: { running?: boolean; closing?: boolean; status?: string; blockingStatus?: string; initialising?: boolean }): Worker {
  const client = (status: string | undefined) => (state.initialising ? new Promise(() => undefined) : Promise.resolve({ status: status ?? 'ready' }));
  return {
    name,
    closing: state.closing ? Promise.resolve() : undefined,
    isRunning: () => state.running ?? true,
    getBackend: () => ({ connection: { client: client(state.status) }, blockingConnection: { client: client(state.blockingStatus) } }),
  } as unknown as Worker;
}

function service(redisUrl: string | undefined, workers: Worker[]): WorkersService {
  const workersService = new WorkersService({ role: 'worker', redisUrl } as AppConfig, {} as DiscoveryService);
  (workersService as unknown as { started: Worker[] }).started = workers;
  return workersService;
}

describe('WorkersService.unableWorkers', () => {
  it('names a worker whose run loop ended, unless it is closing', async () => {
    const workers = [fakeWorker('a', {}), fakeWorker('b', { running: false }), fakeWorker('c', { running: false, closing: true })];
    expect(await service(undefined, workers).unableWorkers()).toEqual(['b']);
  });

  it('on Redis, names a worker with a connection not open or a client still initialising', async () => {
    const workers = [
      fakeWorker('open', {}),
      fakeWorker('reconnecting', { status: 'reconnecting' }),
      fakeWorker('blocking-closed', { blockingStatus: 'end' }),
      fakeWorker('initialising', { initialising: true }),
    ];
    expect(await service('redis://127.0.0.1:6379', workers).unableWorkers()).toEqual(['reconnecting', 'blocking-closed', 'initialising']);
  });

  it('reads no connection state on the PostgreSQL backend', async () => {
    expect(await service(undefined, [fakeWorker('pg', { status: 'whatever' })]).unableWorkers()).toEqual([]);
  });
});
