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
import { Idempotent } from './idempotent.decorator';

/** In-memory stand-in for the PostgreSQL store: same contract, no expiry. */
class MemoryKeys {
  readonly rows = new Map<string, HeldKey>();
  async claim(projectId: string, key: string, method: string, path: string) {
    const id = `${projectId}:${key}`;
    const held = this.rows.get(id);
    if (held) return { held };
    this.rows.set(id, { method, path, statusCode: null, createdAt: new Date() });
    return null;
  }
  async complete(projectId: string, key: string, statusCode: number) {
    this.rows.get(`${projectId}:${key}`)!.statusCode = statusCode;
  }
  async release(projectId: string, key: string) {
    this.rows.delete(`${projectId}:${key}`);
  }
}

let performed = 0;

@Controller('things')
class ThingsController {
  @Idempotent()
  @Post()
  create(@Body() body: { fail?: string }, @Req() req: Request) {
    if (body.fail === '4xx') throw badRequest('nope');
    if (body.fail === '5xx') throw new Error('boom');
    performed++;
    return { ok: true, user: (req.user as { projectId: string }).projectId };
  }

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
  const keys = new MemoryKeys();

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

  it('refuses a repeat with 409 and the original request in details', async () => {
    await request(app.getHttpServer()).post('/things').set('Idempotency-Key', 'abc').send({}).expect(201);
    const repeat = await request(app.getHttpServer()).post('/things').set('Idempotency-Key', 'abc').send({}).expect(409);
    expect(performed).toBe(1);
    expect(repeat.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(repeat.body.error.details).toEqual({
      key: 'abc',
      originalRequest: 'POST /things',
      originalRequestAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      originalStatusCode: 201,
    });
  });

  it('records the declared status code of a handler', async () => {
    await request(app.getHttpServer()).post('/things/ok').set('Idempotency-Key', 'ok-1').expect(200);
    expect(keys.rows.get('p1:ok-1')?.statusCode).toBe(200);
  });

  it('scopes keys to the project', async () => {
    await request(app.getHttpServer()).post('/things').set('Idempotency-Key', 'shared').send({}).expect(201);
    await request(app.getHttpServer()).post('/things').set('X-Test-Project', 'p2').set('Idempotency-Key', 'shared').send({}).expect(201);
    expect(performed).toBe(2);
  });

  it('releases the key on a 4xx outcome and keeps it on a 5xx', async () => {
    await request(app.getHttpServer()).post('/things').set('Idempotency-Key', 'four').send({ fail: '4xx' }).expect(400);
    await request(app.getHttpServer()).post('/things').set('Idempotency-Key', 'four').send({}).expect(201);
    await request(app.getHttpServer()).post('/things').set('Idempotency-Key', 'five').send({ fail: '5xx' }).expect(500);
    const repeat = await request(app.getHttpServer()).post('/things').set('Idempotency-Key', 'five').send({}).expect(409);
    expect(repeat.body.error.details.originalStatusCode).toBe(500);
  });

  it('answers a malformed key with 400', async () => {
    const long = await request(app.getHttpServer()).post('/things').set('Idempotency-Key', 'x'.repeat(256)).send({}).expect(400);
    expect(long.body.error.code).toBe('BAD_REQUEST');
    await request(app.getHttpServer()).post('/things').set('Idempotency-Key', 'caf\u00e9').send({}).expect(400);
    await request(app.getHttpServer()).post('/things').set('Idempotency-Key', 'x'.repeat(255)).send({}).expect(201);
    expect(performed).toBe(1);
  });
});
