import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../http/access';
import type { SchemaObject } from '../http/openapi-responses';
import { READINESS_CHECK_TIMEOUT_MS, ReadinessRegistry } from './readiness.registry';
import { StuckWorkersWatch } from './stuck-workers';

const CHECKS: SchemaObject = { type: 'object', additionalProperties: { type: 'object', properties: { status: { type: 'string', enum: ['up', 'down'] } }, additionalProperties: true } };
/** Terminus' result: `status`, and per check (database, queue, transport, …) its state in `info` (up) or `error` (down). */
const READINESS: SchemaObject = {
  type: 'object',
  properties: { status: { type: 'string', enum: ['ok', 'error'] }, info: CHECKS, error: CHECKS, details: CHECKS },
};

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly typeorm: TypeOrmHealthIndicator,
    private readonly readiness: ReadinessRegistry,
    private readonly stuckWorkers: StuckWorkersWatch,
  ) {}

  /**
   * Liveness: the process serves HTTP and its queue workers are not stuck for good (see
   * `StuckWorkersWatch`: unable to work for 2 minutes while the queue backend answers). Touches no
   * dependency unless a worker is unable to work.
   */
  @Public()
  @Get()
  @ApiOperation({ summary: 'Liveness probe' })
  @ApiOkResponse({ description: 'The process is alive', schema: { type: 'object', properties: { status: { type: 'string', enum: ['ok'] } } } })
  @ApiServiceUnavailableResponse({
    description: 'Queue workers stuck: they could not work for 2 minutes while the queue backend answered; restart the process',
    schema: { type: 'object', properties: { status: { type: 'string', enum: ['error'] }, stuck: { type: 'array', items: { type: 'string' } } } },
  })
  async live(@Res({ passthrough: true }) res: Response): Promise<{ status: 'ok' } | { status: 'error'; stuck: string[] }> {
    const stuck = await this.stuckWorkers.stuck();
    if (stuck.length === 0) return { status: 'ok' };
    res.status(HttpStatus.SERVICE_UNAVAILABLE);
    return { status: 'error', stuck };
  }

  /** Readiness: database, queue backend and email transport reachable; 503 with the failing part otherwise. */
  @Public()
  @Get('ready')
  @ApiOperation({ summary: 'Readiness probe' })
  @ApiOkResponse({ description: 'Every dependency is reachable', schema: READINESS })
  @ApiServiceUnavailableResponse({ description: 'At least one dependency is down (see `error`)', schema: READINESS })
  async ready(@Res({ passthrough: true }) res: Response): Promise<unknown> {
    const checks = [
      () => this.typeorm.pingCheck('database').withTimeout(READINESS_CHECK_TIMEOUT_MS),
      ...this.readiness.entries().map(
        ([name, check]) =>
          () =>
            this.indicators
              .check(name)
              .attempt(() => check())
              .withTimeout(READINESS_CHECK_TIMEOUT_MS),
      ),
    ];
    try {
      return await this.health.check(checks);
    } catch (err) {
      const body = (err as { getResponse?: () => unknown }).getResponse?.();
      if (!body) throw err;
      res.status(HttpStatus.SERVICE_UNAVAILABLE);
      return body;
    }
  }
}
