import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { CursorPageQuery } from '../../../platform/http/cursor-page.query';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../entities/webhook-delivery.entity';

export class ListDeliveriesQuery extends CursorPageQuery {
  @ApiPropertyOptional({ description: 'Only deliveries of this status', enum: DELIVERY_STATUSES })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES, { message: `status must be one of ${DELIVERY_STATUSES.join(', ')}` })
  status?: DeliveryStatus;
}
