import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { MAX_TEMPLATE_BODY } from '../../templates';
import { AB_METRICS, AB_PHASES, type AbMetric, type AbPhase } from '../entities/campaign.entity';

const NO_LINE_BREAK = /^[^\r\n]*$/;

export class AbVariantDto {
  @ApiProperty({ description: 'Subject line of this variant (Liquid template)', type: String })
  @IsString() @IsNotEmpty() @MaxLength(998) @Matches(NO_LINE_BREAK, { message: 'subject must not contain line breaks' })
  subject!: string;
  @ApiPropertyOptional({ description: "HTML body of this variant (Liquid); omitted, the campaign's body", type: String, nullable: true })
  @IsOptional() @IsString() @MaxLength(MAX_TEMPLATE_BODY) body?: string | null;
  @ApiPropertyOptional({ description: "Sender display name of this variant; omitted, the campaign's", type: String, nullable: true })
  @IsOptional() @IsString() @MaxLength(200) @Matches(NO_LINE_BREAK, { message: 'fromName must not contain line breaks' })
  fromName?: string | null;
}

/** `abTest` on create and replace (docs/delivery-control.md#ab-tests); null or omitted: a plain campaign. */
export class AbTestDto {
  @ApiProperty({ description: 'The other variants (1 to 4): "B", "C", … in order; the campaign\'s own content is "A"', type: () => [AbVariantDto] })
  @IsArray({ message: 'variants must be an array of 1 to 4 variants' })
  @ArrayMinSize(1, { message: 'variants must hold 1 to 4 variants' })
  @ArrayMaxSize(4, { message: 'variants must hold 1 to 4 variants' })
  @ValidateNested({ each: true })
  @Type(() => AbVariantDto)
  variants!: AbVariantDto[];
  @ApiPropertyOptional({ description: 'Share of the fixed audience that gets the test, split evenly among the variants (5 to 50; default 20)', type: 'integer', minimum: 5, maximum: 50 })
  @IsOptional() @IsInt({ message: 'testPercent must be an integer' }) @Min(5, { message: 'testPercent must be 5 to 50' }) @Max(50, { message: 'testPercent must be 5 to 50' })
  testPercent?: number;
  @ApiPropertyOptional({ description: 'What wins: the unique open rate or the unique click rate among delivered emails (default opens)', enum: AB_METRICS })
  @IsOptional() @IsIn(AB_METRICS, { message: 'metric must be opens or clicks' })
  metric?: AbMetric;
  @ApiProperty({ description: 'Minutes between the test share being sent and the winner being picked (30 to 10080)', type: 'integer', minimum: 30, maximum: 10080 })
  @IsInt({ message: 'waitMinutes must be an integer' }) @Min(30, { message: 'waitMinutes must be 30 to 10080' }) @Max(10080, { message: 'waitMinutes must be 30 to 10080' })
  waitMinutes!: number;
}

export class PickAbWinnerDto {
  @ApiProperty({ description: 'The variant letter that wins ("A" is the campaign\'s own content)', type: String, example: 'B' })
  @IsString() @Matches(/^[A-E]$/, { message: 'variant must be a letter A to E' })
  variant!: string;
}

export class AbVariantStats {
  @ApiProperty({ description: 'Variant letter', type: String }) variant!: string;
  @ApiProperty({ description: 'Its subject', type: String }) subject!: string;
  @ApiProperty({ description: 'Emails written for it (skipped contacts excluded); the rest of the audience counts for the winner', type: 'integer' }) recipients!: number;
  @ApiProperty({ type: 'integer' }) delivered!: number;
  @ApiProperty({ description: 'Unique opens among delivered', type: 'integer' }) opened!: number;
  @ApiProperty({ description: 'Unique clicks among delivered', type: 'integer' }) clicked!: number;
  @ApiProperty({ description: 'opened / delivered (0 when none delivered)', type: Number }) openRate!: number;
  @ApiProperty({ description: 'clicked / delivered (0 when none delivered)', type: Number }) clickRate!: number;
}

export class AbTestStats {
  @ApiProperty({ description: 'testing (the test share is being sent), waiting (for waitMinutes), winner (the rest gets the winner)', enum: AB_PHASES })
  phase!: AbPhase;
  @ApiProperty({ description: 'The winning letter, once decided (automatically or by hand); null before', type: String, nullable: true })
  winner!: string | null;
  @ApiProperty({ description: 'When the winner was decided (ISO 8601); null before', type: String, nullable: true })
  decidedAt!: string | null;
  @ApiProperty({ type: () => [AbVariantStats] })
  variants!: AbVariantStats[];
}

export class AbTestSettingsResponse {
  @ApiProperty({ type: () => [AbVariantDto] }) variants!: AbVariantDto[];
  @ApiProperty({ type: 'integer' }) testPercent!: number;
  @ApiProperty({ enum: AB_METRICS }) metric!: AbMetric;
  @ApiProperty({ type: 'integer' }) waitMinutes!: number;
}
