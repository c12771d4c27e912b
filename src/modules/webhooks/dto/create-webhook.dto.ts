import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsEventPatterns, IsWebhookUrl, MAX_DESCRIPTION_LENGTH, MAX_PATTERNS, MAX_URL_LENGTH } from './webhook-fields';

export class CreateWebhookDto {
  @IsDefined({ message: 'url is required' })
  @IsWebhookUrl()
  @ApiProperty({ description: `The endpoint: an http or https URL, at most ${MAX_URL_LENGTH} characters`, type: String, maxLength: MAX_URL_LENGTH, example: 'https://example.com/hooks/mailroom' })
  url: string;

  @IsDefined({ message: 'events is required' })
  @IsEventPatterns()
  @ApiProperty({
    description: 'Patterns over event names: an exact name (`email.bounce`, `purchase`), a prefix ending in `.*` (`email.*`), or `*`',
    type: [String],
    minItems: 1,
    maxItems: MAX_PATTERNS,
    example: ['email.*', 'purchase'],
  })
  events: string[];

  @IsOptional()
  @IsString()
  @MaxLength(MAX_DESCRIPTION_LENGTH)
  @ApiPropertyOptional({ description: 'What the endpoint is for', type: String, nullable: true, maxLength: MAX_DESCRIPTION_LENGTH })
  description?: string | null;

  @IsOptional()
  @IsBoolean()
  @ApiPropertyOptional({ description: 'Whether it receives events (default true)', type: Boolean })
  enabled?: boolean;
}
