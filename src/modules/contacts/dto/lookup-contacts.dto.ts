import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsEmail, IsString, Matches, MaxLength } from 'class-validator';
import { NO_CONTROL_CHARS } from './email-field';

export const LOOKUP_MAX = 500;

export class LookupContactsDto {
  @IsDefined({ message: 'emails is required' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(LOOKUP_MAX, { message: `emails may hold at most ${LOOKUP_MAX} addresses` })
  @Transform(({ value }) => (Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v.replace(/^ +| +$/g, '') : v)) : value))
  @IsString({ each: true })
  @MaxLength(320, { each: true })
  @Matches(NO_CONTROL_CHARS, { each: true, message: 'each address must be free of control characters' })
  @IsEmail({}, { each: true, message: 'each value of emails must be a valid email address' })
  @ApiProperty({ description: 'Email addresses to look up', type: [String] })
  emails: string[];
}
