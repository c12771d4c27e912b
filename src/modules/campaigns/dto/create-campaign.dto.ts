import { IsIn, IsObject, IsOptional, IsUUID } from 'class-validator';
import { CreateTemplateDto } from '../../templates/dto/create-template.dto';
import { AUDIENCE_TYPES, type AudienceType } from '../entities/campaign.entity';

/**
 * Create and full replacement (`PUT`): a template's message fields (same rules) plus the
 * audience. Required fields are optional here on purpose: the service names every missing one in
 * a single 422 (decisions.md), while a malformed value is its own item.
 */
export class CreateCampaignDto extends CreateTemplateDto {
  @IsOptional() @IsIn(AUDIENCE_TYPES) audienceType?: AudienceType;
  @IsOptional() @IsUUID('all', { message: 'segmentId must be a UUID' }) segmentId?: string | null;
  @IsOptional() @IsObject() audienceCondition?: Record<string, unknown> | null;
}
