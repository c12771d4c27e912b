import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { OptionalNotNull } from '../../../platform/http/validation';
import { PROJECT_LANGUAGES, TRACKING_MODES } from '../project-settings';
import type { TrackingMode } from '../entities/project.entity';

export class UpdateProjectDto {
  @OptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  @ApiPropertyOptional({ description: 'Project name, 1-100 characters', type: String, minLength: 1, maxLength: 100 })
  name?: string;

  @ApiPropertyOptional({ description: 'Open/click tracking: ENABLED, DISABLED, or MARKETING_ONLY (marketing email only)', enum: TRACKING_MODES })
  @OptionalNotNull()
  @IsIn(TRACKING_MODES)
  tracking?: TrackingMode;

  @OptionalNotNull()
  @IsIn(PROJECT_LANGUAGES)
  @ApiPropertyOptional({ description: 'Language of hosted pages and system emails', enum: PROJECT_LANGUAGES })
  language?: string;

  /** Only `false`: re-enables a project the service disabled (e.g. for its reputation). */
  @OptionalNotNull()
  @IsIn([false], { message: 'disabled can only be set to false (re-enable the project)' })
  @ApiPropertyOptional({ description: 'Only false: re-enables a disabled project', type: Boolean, enum: [false] })
  disabled?: false;
}
