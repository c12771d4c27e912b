import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Allow, IsIn, IsObject, IsOptional, IsUUID, ValidateNested } from 'class-validator';
import { AbTestDto } from './ab-test.dto';
import { FilterTreeSchema } from '../../filters';
import { CreateTemplateDto } from '../../templates';
import { AUDIENCE_TYPES, type AudienceType } from '../entities/campaign.entity';
import { DELIVERY_PROPERTY } from '../engine/delivery-settings';

/**
 * Create and full replacement (`PUT`): a template's message fields (same rules) plus the
 * audience. Required fields are optional here on purpose: the service names every missing one in
 * a single 422 (docs/decisions.md#campaigns), while a malformed value is its own item.
 */
export class CreateCampaignDto extends CreateTemplateDto {
  @ApiPropertyOptional({ description: 'Required. ALL contacts, SEGMENT (needs segmentId) or FILTERED (needs audienceCondition)', enum: AUDIENCE_TYPES })
  @IsOptional() @IsIn(AUDIENCE_TYPES) audienceType?: AudienceType;
  @ApiPropertyOptional({ description: 'A segment of this project (UUID); used when audienceType is SEGMENT, ignored otherwise', type: String, format: 'uuid', nullable: true })
  @IsOptional() @IsUUID('all', { message: 'segmentId must be a UUID' }) segmentId?: string | null;
  @ApiPropertyOptional({ description: 'Filter tree (as a segment condition); used when audienceType is FILTERED, ignored otherwise', type: () => FilterTreeSchema, nullable: true })
  @IsOptional() @IsObject() audienceCondition?: Record<string, unknown> | null;
  @ApiPropertyOptional({ description: 'A topic of this project (UUID): the audience is narrowed to its members (the others are skipped with reason `topic`) and its MARKETING mail\'s List-Unsubscribe leaves the topic; null for none', type: String, format: 'uuid', nullable: true })
  @IsOptional() @IsUUID('all', { message: 'topicId must be a UUID' }) topicId?: string | null;
  @ApiPropertyOptional({ description: 'A/B test (docs/delivery-control.md#ab-tests): variants of the content, the test share, the metric and the wait; null or omitted for a plain campaign', type: () => AbTestDto, nullable: true })
  @IsOptional() @IsObject({ message: 'abTest must be an object {variants, testPercent?, metric?, waitMinutes}, or null' }) @ValidateNested() @Type(() => AbTestDto)
  abTest?: AbTestDto | null;
  @ApiPropertyOptional({
    description:
      'Gradual sending and window (docs/delivery-control.md): waves of batchSize (1 to 1,000,000) every intervalMinutes (1 to 10,080, default 60), started only inside window (days mon…sun, from < to as HH:MM in timezone). Null: all at once. Checked by the service (one 422 item per bad field)',
    ...DELIVERY_PROPERTY,
  })
  @Allow()
  delivery?: unknown;
}
