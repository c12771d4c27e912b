import { Body, Controller, HttpCode, INestApplication, Post, Req } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import type { NextFunction, Request, Response } from 'express';
import request from 'supertest';
import { configureLogger } from '../../logging/logger';
import { badRequest } from '../app-error';
import { ErrorEnvelopeFilter } from '../exception.filter';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { HeldKey, IdempotencyService } from './idempotency.service';
import { IdempotencyClaim, IdempotencyKeyClaim } from './idempotency-claim';
import { Idempotent } from './idempotent.decorator';

/** In-memory stand-in for the PostgreSQL store: same contract, no expiry, no transactions. */
class MemoryKeys {
  readonly rows = new Map<string, HeldKey>();
  async find(projectId: string, key: string) {
    return this.rows.get(`${projectId}:${key}`) ?? null;
  }
  /** What a service does inside its write transaction: claim, write, record the answer. */
  async claimAndRecord(claim: IdempotencyClaim, statusCode: number, response: unknown) {
    const id = `${claim.projectId}:${claim.key}`;
    if (this.rows.has(id)) return false;
    this.rows.set(id, { method: claim.method, path: claim.path, statusCode, response, createdAt: new Date() });
    claim.recorded = true;
    return true;
  }
  async recordAfter(claim: IdempotencyClaim, statusCode: number, response: unknown) {
    const id = `${claim.projectId}:${claim.key}`;
    if (!this.rows.has(id)) this.rows.set(id, { method: claim.method, path: claim.path, statusCode, response, createdAt: new Date() });
    claim.recorded = true;
  }
}

const keys = new MemoryKeys();
let performed = 0;

@Controller('things')
class ThingsController {
  /** Claims in its "transaction", like `/v1/send`. */
  @Idempotent()
  @Post()
  async create(@Body() body: { fail?: string }, @Req() req: Request, @IdempotencyKeyClaim() claim: IdempotencyClaim | undefined) {
    if (body.fail === '4xx') throw badRequest('nope');
    if (body.fail === '5xx') throw new Error('boom');
    const result = { ok: true, n: ++performed, user: (req.user as { projectId: string }).projectId };
    if (claim && !(await keys.claimAndRecord(claim, 201, { success: true, data: result }))) throw new Error('the interceptor let a taken key through');
    return { success: true, data: result };
  }

  /** Writes without claiming: the interceptor records the key after the answer. */
  @Idempotent()
  @Post('ok')
  @HttpCode(200)
  ok() {
    performed++;
    return { ok: true };
  }
}

describe('IdempotencyInterceptor', () => {
  let app: INestApplication;

  beforeAll(async () => {
    configureLogger('silent');
    const moduleRef = await Test.createTestingModule({
      controllers: [ThingsController],
      providers: [
        { provide: IdempotencyService, useValue: keys },
        { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
        { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
      ],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    app.use((req: Request, _res: Response, next: NextFunction) => {
      req.user = { projectId: req.header('x-test-project') ?? 'p1' };
      next();
    });
    await app.init();
  });
  afterAll(() => app?.close());
  beforeEach(() => (performed = 0));

  it('performs a request without a key every time', async () => {
    await request(app.getHttpServer()).post('/things').send({}).expect(201);
    await request(app.getHttpServer()).post('/things').send({}).expect(201);
    expect(performed).toBe(2);
  });

  it('refuses a repeat with 409, the original request and its answer in details', async () => {
    const first = await request(app.getHttpServer()).post('/things').set('Idempotency-Key', 'abc').send({}).expect(201);
    const repeat = await request(app.getHttpServer()).post('/things').set('Idempotency-Key', 'abc').send({}).expect(409);
    expect(performed).toBe(1);
    expect(repeat.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(repeat.body.error.details).toEqual({
      key: 'abc',
      originalRequest: 'POST /things',
      originalRequestAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      originalStatusCode: 201,
      originalResponse: first.body,
    });
  });

  it('records after the answer for a handler that wrote without claiming', async () => {
    await request(app.getHttpServer()).post('/things/ok').set('Idempotency-Key', 'ok-1').expect(200);
    expect(keys.rows.get('p1:ok-1')).toMatchObject({ statusCode: 200, response: { ok: true } });
    await request(app.getHttpServer()).post('/things/ok').set('Idempotency-Key', 'ok-1').expect(409);
    expect(performed).toBe(1);
  });

  it('scopes keys to the project', async () => {
    await request(app.getHttpServer()).post('/things').set('Idempotency-Key', 'shared').send({}).expect(201);
    await request(app.getHttpServer()).post('/things').set('X-Test-Project', 'p2').set('Idempotency-Key', 'shared').send({}).expect(201);
    expect(performed).toBe(2);
  });

  it('leaves the key free after a 4xx or a 5xx: the failed request wrote nothing', async () => {
    await request(app.getHttpServer()).post('/things').set('Idempotency-Key', 'four').send({ fail: '4xx' }).expect(400);
    await request(app.getHttpServer()).post('/things').set('Idempotency-Key', 'four').send({}).expect(201);
    await request(app.getHttpServer()).post('/things').set('Idempotency-Key', 'five').send({ fail: '5xx' }).expect(500);
    await request(app.getHttpServer()).post('/things').set('Idempotency-Key', 'five').send({}).expect(201);
    expect(performed).toBe(2);
  });

  it('answers a malformed key with 400', async () => {
    const long = await request(app.getHttpServer()).post('/things').set('Idempotency-Key', 'x'.repeat(256)).send({}).expect(400);
    expect(long.body.error.code).toBe('BAD_REQUEST');
    await request(app.getHttpServer()).post('/things').set('Idempotency-Key', 'caf\u00e9').send({}).expect(400);
    await request(app.getHttpServer()).post('/things').set('Idempotency-Key', 'x'.repeat(255)).send({}).expect(201);
    expect(performed).toBe(1);
  });
});
