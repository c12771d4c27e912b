import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

/** Only presence and type are checked here: a malformed address is an answer (`valid: false`), not a 422. */
export class VerifyEmailDto {
  @IsString({ context: { code: 'invalid_type' } })
  @IsNotEmpty({ context: { code: 'too_small' } })
  @MaxLength(1000, { context: { code: 'too_big' } })
  @ApiProperty({ description: 'Email address', type: String })
  email: string;
}
