import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { PROJECT_LANGUAGES, TRACKING_MODES } from '../project-settings';
import type { TrackingMode } from '../entities/project.entity';

export class UpdateProjectDto {
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name?: string;

  @IsOptional()
  @IsIn(TRACKING_MODES)
  tracking?: TrackingMode;

  @IsOptional()
  @IsIn(PROJECT_LANGUAGES)
  language?: string;

  /** Only `false`: re-enables a project the service disabled (e.g. for its reputation). */
  @IsOptional()
  @IsIn([false], { message: 'disabled can only be set to false (re-enable the project)' })
  disabled?: false;
}
