import { Controller, Get, Headers, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiExcludeController } from '@nestjs/swagger';
import type { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { Public } from '../http/access';
import { safeEqual } from '../crypto';
import { unauthorized } from '../http/app-error';
import { scrapeMetrics } from './cluster-metrics';
import { metricsRegistry } from './metrics';

@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(@InjectConfig() private readonly config: AppConfig) {}

  /** Open by default (keep it behind the proxy); with `METRICS_TOKEN`, only for `Bearer <token>`. */
  @Public()
  @Get()
  async scrape(@Headers('authorization') authorization: string | undefined, @Res({ passthrough: true }) res: Response): Promise<string> {
    const token = this.config.metricsToken;
    if (token !== undefined && !safeEqual(authorization ?? '', `Bearer ${token}`)) {
      throw unauthorized('GET /metrics needs Authorization: Bearer <METRICS_TOKEN>');
    }
    const text = await scrapeMetrics();
    // Set here, not with @Header: a refusal above must keep its JSON error body's content type.
    res.setHeader('Content-Type', metricsRegistry.contentType);
    res.setHeader('Cache-Control', 'no-store');
    return text;
  }
}
