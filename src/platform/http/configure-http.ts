import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import cookieParser from 'cookie-parser';
import { json, urlencoded } from 'express';
import type { AppConfig } from '../../config/config';
import { requestIdMiddleware } from './request-context';
import { createValidationPipe } from './validation';

/** Body size for `/v1/send`: a 40 MB message arrives base64-encoded inside JSON. */
const SEND_BODY_LIMIT = '56mb';
const DEFAULT_BODY_LIMIT = '1mb';

export function configureHttp(app: INestApplication, config: AppConfig): void {
  const express = app as NestExpressApplication;
  express.disable('x-powered-by');
  express.set('trust proxy', 'loopback, linklocal, uniquelocal');
  express.use(requestIdMiddleware);
  express.use(cookieParser());
  express.use('/v1/send', json({ limit: SEND_BODY_LIMIT }));
  express.use(json({ limit: DEFAULT_BODY_LIMIT }));
  express.use(urlencoded({ extended: false, limit: DEFAULT_BODY_LIMIT }));
  express.useGlobalPipes(createValidationPipe());
  void config;
}
