import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../entities/webhook-delivery.entity';

export class ListDeliveriesQuery {
  @ApiPropertyOptional({ description: 'Only deliveries of this status', enum: DELIVERY_STATUSES })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES, { message: `status must be one of ${DELIVERY_STATUSES.join(', ')}` })
  status?: DeliveryStatus;
  @ApiPropertyOptional({ description: 'Page size, 1-100 (default 20; larger values are clamped)', type: 'integer' })
  @IsOptional()
  limit?: string;
  @ApiPropertyOptional({ description: 'Cursor from the previous page (`cursor` of the response)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  cursor?: string;
}
