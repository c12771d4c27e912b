import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsDefined, IsEmail, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { NO_CONTROL_CHARS } from '../../contacts';

export const MEMBERS_MAX = 1000;

export class RemoveSegmentMembersDto {
  @IsDefined({ message: 'emails is required' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MEMBERS_MAX, { message: `emails may hold at most ${MEMBERS_MAX} addresses` })
  @Transform(({ value }) => (Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v.replace(/^ +| +$/g, '') : v)) : value))
  @IsString({ each: true })
  @MaxLength(320, { each: true })
  @Matches(NO_CONTROL_CHARS, { each: true, message: 'each address must be free of control characters' })
  @IsEmail({}, { each: true, message: 'each value of emails must be a valid email address' })
  @ApiProperty({ description: `Email addresses, 1-${MEMBERS_MAX}; only for a STATIC segment (400 on a DYNAMIC one)`, type: [String], minItems: 1, maxItems: MEMBERS_MAX })
  emails: string[];
}

export class AddSegmentMembersDto extends RemoveSegmentMembersDto {
  @ApiPropertyOptional({ description: 'Create a contact for each address that has none (default false: such addresses are returned in notFound)', type: Boolean })
  @IsOptional()
  @IsBoolean()
  createMissing?: boolean;

  /** Applies only to contacts that `createMissing` creates (default true). */
  @ApiPropertyOptional({ description: 'Subscription of the contacts that createMissing creates (default true); existing contacts keep theirs', type: Boolean })
  @IsOptional()
  @IsBoolean()
  subscribed?: boolean;
}
