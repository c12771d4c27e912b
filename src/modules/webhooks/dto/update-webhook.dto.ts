import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { OptionalNotNull } from '../../../platform/http/validation';
import { IsEventPatterns, IsWebhookUrl, MAX_DESCRIPTION_LENGTH, MAX_PATTERNS, MAX_URL_LENGTH } from './webhook-fields';

/** Every field optional; `url`, `events` and `enabled` may change but not be cleared (null is a 422). */
export class UpdateWebhookDto {
  @OptionalNotNull()
  @IsWebhookUrl()
  @ApiPropertyOptional({ description: `The endpoint: an http or https URL, at most ${MAX_URL_LENGTH} characters`, type: String, maxLength: MAX_URL_LENGTH })
  url?: string;

  @OptionalNotNull()
  @IsEventPatterns()
  @ApiPropertyOptional({ description: 'Patterns over event names: an exact name, a prefix ending in `.*`, or `*`', type: [String], minItems: 1, maxItems: MAX_PATTERNS })
  events?: string[];

  @IsOptional()
  @IsString()
  @MaxLength(MAX_DESCRIPTION_LENGTH)
  @ApiPropertyOptional({ description: 'What the endpoint is for (null clears it)', type: String, nullable: true, maxLength: MAX_DESCRIPTION_LENGTH })
  description?: string | null;

  @OptionalNotNull()
  @IsBoolean()
  @ApiPropertyOptional({ description: 'false stops deliveries (pending ones end failed); true resumes with new events and clears disabledReason', type: Boolean })
  enabled?: boolean;
}
