import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { OffsetPageQuery } from '../../../platform/http/offset-page.query';
import { EXECUTION_STATUSES } from '../entities/workflow-execution.entity';

export class ListExecutionsQuery extends OffsetPageQuery {
  @ApiPropertyOptional({ description: 'Only executions in this status (case-insensitive); another value is a 422', enum: EXECUTION_STATUSES })
  @IsOptional() @IsString() @MaxLength(32) status?: string;
}
