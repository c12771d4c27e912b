import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth';
import { notFound } from '../../../platform/http/app-error';
import { TrackingService } from './tracking.service';

/** 1x1 transparent GIF. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** Links inside sent mail: they must keep working without credentials. HEAD answers but never counts. */
@ApiExcludeController()
@Controller('t')
export class TrackingController {
  constructor(private readonly tracking: TrackingService) {}

  @Public()
  @Get('o/:file')
  async open(@Param('file') file: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    if (!(await this.tracking.open(file, req.method === 'GET'))) throw notFound('Link');
    res
      .status(200)
      .set({
        'Content-Type': 'image/gif',
        'Cache-Control': 'no-store, no-cache, must-revalidate, private, max-age=0',
        Pragma: 'no-cache',
        Expires: '0',
      })
      .send(PIXEL);
  }

  @Public()
  @Get('c/:token')
  async click(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const target = await this.tracking.click(token, req.method === 'GET');
    if (!target) throw notFound('Link');
    res.set('Cache-Control', 'no-store').redirect(302, target);
  }
}
