import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';

/** The preference centre's form posts (urlencoded, no script): one `topics` per checked box, a snooze choice, or a subscription action. */
export class ManagePreferencesDto {
  @IsIn(['subscribe', 'unsubscribe', 'save'])
  action: 'subscribe' | 'unsubscribe' | 'save';

  /** A single checked box arrives as a string, several as an array. */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? [value] : value))
  @IsArray()
  @ArrayMaxSize(500)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  topics?: string[];

  /** Empty keeps a running snooze; `none` ends it. */
  @IsOptional()
  @IsIn(['', 'none', '2w', '1m', '3m'])
  snooze?: '' | 'none' | '2w' | '1m' | '3m';
}
