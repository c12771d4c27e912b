import { EventEmitter } from 'node:events';
import type { Request, Response } from 'express';
import { API_BUSY_IN_FLIGHT, apiInFlight, apiLoadMiddleware, apiYieldGate, yieldToApi } from './api-load';

/** Starts `n` requests through the middleware; closing a response ends its request. */
function start(n: number): EventEmitter[] {
  return Array.from({ length: n }, () => {
    const res = new EventEmitter();
    apiLoadMiddleware({} as Request, res as unknown as Response, () => undefined);
    return res;
  });
}

const closeAll = (responses: EventEmitter[]) => responses.forEach((r) => r.emit('close'));

describe('apiLoadMiddleware', () => {
  it('counts a request from its start until its response closes', () => {
    const before = apiInFlight();
    const responses = start(3);
    expect(apiInFlight()).toBe(before + 3);
    closeAll(responses);
    expect(apiInFlight()).toBe(before);
  });
});

describe('yieldToApi', () => {
  it('does not wait while fewer requests than the threshold are in flight', async () => {
    const responses = start(API_BUSY_IN_FLIGHT - 1);
    try {
      expect(await yieldToApi(1_000)).toBe(0);
    } finally {
      closeAll(responses);
    }
  });

  it('waits while the API is busy and goes on once it calms down', async () => {
    const responses = start(API_BUSY_IN_FLIGHT);
    setTimeout(() => closeAll(responses), 150);
    const waited = await yieldToApi(5_000);
    expect(waited).toBeGreaterThanOrEqual(140);
    expect(waited).toBeLessThan(1_000);
  });

  it('under a load that does not end lets one waiter go on every bound, the first after one bound', async () => {
    const responses = start(API_BUSY_IN_FLIGHT + 10);
    try {
      const t0 = Date.now();
      const ends = (await Promise.all([yieldToApi(300), yieldToApi(300)].map((w) => w.then(() => Date.now() - t0)))).sort((a, b) => a - b);
      expect(ends[0]).toBeGreaterThanOrEqual(295);
      expect(ends[0]).toBeLessThan(1_000);
      // The second went on a whole bound after the first.
      expect(ends[1] - ends[0]).toBeGreaterThanOrEqual(290);
    } finally {
      closeAll(responses);
    }
  });

  it('bounds the wait of a lone waiter', async () => {
    await new Promise((resolve) => setTimeout(resolve, 250)); // the previous test's last pass is a bound ago
    const responses = start(API_BUSY_IN_FLIGHT + 10);
    try {
      const waited = await yieldToApi(200);
      expect(waited).toBeGreaterThanOrEqual(195);
      expect(waited).toBeLessThan(1_000);
    } finally {
      closeAll(responses);
    }
  });

  it('with a bound of 0 never waits', async () => {
    const responses = start(API_BUSY_IN_FLIGHT + 10);
    try {
      expect(await yieldToApi(0)).toBe(0);
    } finally {
      closeAll(responses);
    }
  });
});

describe('apiYieldGate', () => {
  afterEach(() => jest.useRealTimers());

  it('holds while the API is busy, lets one round through per bound, and opens once the API calms down', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const gate = apiYieldGate(2_000);
    expect(gate()).toBe(true);
    const responses = start(API_BUSY_IN_FLIGHT);
    try {
      expect(gate()).toBe(false);
      jest.advanceTimersByTime(1_999);
      expect(gate()).toBe(false);
      jest.advanceTimersByTime(1);
      expect(gate()).toBe(true); // the bound passed: one round, then it holds again
      expect(gate()).toBe(false);
      jest.advanceTimersByTime(2_000);
      expect(gate()).toBe(true);
    } finally {
      closeAll(responses);
    }
    expect(gate()).toBe(true);
  });

  it('with a bound of 0 never holds', () => {
    const responses = start(API_BUSY_IN_FLIGHT + 5);
    try {
      expect(apiYieldGate(0)()).toBe(true);
    } finally {
      closeAll(responses);
    }
  });
});
