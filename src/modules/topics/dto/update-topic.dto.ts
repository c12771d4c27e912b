import { ApiHideProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsBoolean, IsIn, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { OptionalNotNull } from '../../../platform/http/validation';
import { TOPIC_DEFAULTS, type TopicDefault } from '../entities/topic.entity';

/**
 * `PATCH /topics/:id`: each field changes only when sent (`description: null` clears it). The slug is
 * fixed once created (contacts' choices and filters name the topic by it); sending one is a 422.
 */
export class UpdateTopicDto {
  @ApiPropertyOptional({ description: 'Name, 1 to 100 characters (the slug stays)', type: String, maxLength: 100 })
  @OptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name?: string;

  @ApiPropertyOptional({ description: 'Free-text description, at most 500 characters (null clears it)', type: String, maxLength: 500, nullable: true })
  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsString()
  @MaxLength(500)
  description?: string | null;

  @ApiPropertyOptional({ description: 'Membership default', enum: TOPIC_DEFAULTS })
  @OptionalNotNull()
  @IsIn(TOPIC_DEFAULTS)
  default?: TopicDefault;

  @ApiPropertyOptional({ description: 'Shown on the preference centre', type: Boolean })
  @OptionalNotNull()
  @IsBoolean()
  public?: boolean;

  /** Not writable: kept so that sending it is the service's 422 `immutable`, not silently dropped. */
  @ApiHideProperty()
  @Allow()
  slug?: unknown;
}
