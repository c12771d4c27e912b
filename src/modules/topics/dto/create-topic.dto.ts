import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsIn, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { TOPIC_DEFAULTS, type TopicDefault } from '../entities/topic.entity';

/** A slug as `slugOf` (`src/platform/slug.ts`) makes them: lowercase ASCII word characters in hyphen-separated runs. */
export const TOPIC_SLUG_PATTERN = /^[a-z0-9_]+(-[a-z0-9_]+)*$/;

export class CreateTopicDto {
  @ApiProperty({ description: 'Name, 1 to 100 characters', type: String, maxLength: 100 })
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name!: string;

  @ApiPropertyOptional({ description: 'Key in contacts\' `topics` and in filters (`topics.<slug>`); derived from the name when absent ("Product News" → `product-news`); unique in the project (409)', type: String, maxLength: 100 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  @Matches(TOPIC_SLUG_PATTERN, { message: 'slug must be lowercase letters, digits and underscores in hyphen-separated runs' })
  slug?: string;

  @ApiPropertyOptional({ description: 'Free-text description, at most 500 characters', type: String, maxLength: 500, nullable: true })
  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsString()
  @MaxLength(500)
  description?: string | null;

  @ApiProperty({ description: '`opt_out`: every contact is a member unless it chose false; `opt_in`: only contacts that chose true', enum: TOPIC_DEFAULTS })
  @IsDefined()
  @IsIn(TOPIC_DEFAULTS)
  default!: TopicDefault;

  @ApiPropertyOptional({ description: 'Shown on the preference centre (default true)', type: Boolean })
  @IsOptional()
  @IsBoolean()
  public?: boolean;
}
