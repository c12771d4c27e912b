import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../../modules/auth/auth.decorators';
import { scrapeMetrics } from './cluster-metrics';
import { metricsRegistry } from './metrics';

@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  @Public()
  @Get()
  @Header('Content-Type', metricsRegistry.contentType)
  @Header('Cache-Control', 'no-store')
  scrape(): Promise<string> {
    return scrapeMetrics();
  }
}
