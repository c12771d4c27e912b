import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import cookieParser from 'cookie-parser';
import { json, raw, text, urlencoded } from 'express';
import type { AppConfig } from '../../config/config';
import { apiLoadMiddleware } from './api-load';
import { accessLogMiddleware } from '../logging/access-log.middleware';
import { httpMetricsMiddleware } from '../metrics/http-metrics.middleware';
import { inputGuardMiddleware } from './input-guard';
import { plunkApiPrefixMiddleware } from './plunk-paths';
import { configureDashboard } from './dashboard';
import { configureOpenApi } from './openapi';
import { publicApiCors } from './cors';
import { requestIdMiddleware } from './request-context';
import { requestDeadlineMiddleware } from './request-deadline';
import { answerOutage } from './exception.filter';
import { createValidationPipe } from './validation';

/** Body size for `/v1/send`: a 40 MB message arrives base64-encoded inside JSON. */
const SEND_BODY_LIMIT = '56mb';
const DEFAULT_BODY_LIMIT = '1mb';

export function configureHttp(app: INestApplication, config: AppConfig): void {
  const express = app as NestExpressApplication;
  express.disable('x-powered-by');
  // TRUST_PROXY: whose X-Forwarded-For names the client in req.ip (default: nobody's).
  express.set('trust proxy', config.trustProxy);
  // First: every later middleware and route sees `/api/v1/…` as the `/v1/…` it is.
  express.use(plunkApiPrefixMiddleware);
  express.use(apiLoadMiddleware);
  express.use(requestIdMiddleware);
  express.use(accessLogMiddleware);
  express.use(httpMetricsMiddleware);
  // Before the cookie parser and the guards: preflights carry no credentials.
  express.use(publicApiCors(new URL(config.publicUrl).origin));
  configureDashboard(express, config.webDistDir);
  express.use(cookieParser());
  express.use('/v1/send', json({ limit: SEND_BODY_LIMIT }));
  // SNS posts JSON as text/plain; its receiver parses (and verifies) the raw text itself.
  express.use('/webhooks/sns', text({ type: () => true, limit: DEFAULT_BODY_LIMIT }));
  // Stripe signs the exact bytes it sent: its receiver verifies the raw body (billing module).
  express.use('/webhooks/incoming/stripe', raw({ type: () => true, limit: DEFAULT_BODY_LIMIT }));
  express.use(json({ limit: DEFAULT_BODY_LIMIT }));
  express.use(urlencoded({ extended: false, limit: DEFAULT_BODY_LIMIT }));
  express.use(inputGuardMiddleware);
  // After the body parsers: the deadline bounds the wait on dependencies, not a slow upload (and
  // its async context must reach the handler, which a parser's stream events would not carry).
  express.use(requestDeadlineMiddleware(config.outage.requestTimeoutMs, answerOutage));
  express.useGlobalPipes(createValidationPipe());
  configureOpenApi(app, config);
}
