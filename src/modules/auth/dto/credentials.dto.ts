import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsEmail, IsString, MaxLength, MinLength } from 'class-validator';

export class CredentialsDto {
  @IsDefined()
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(254)
  @ApiProperty({ description: 'Email address', type: String })
  email: string;

  @IsDefined()
  @IsString()
  @MinLength(8)
  @MaxLength(256)
  @ApiProperty({ description: 'Password, 8 to 256 characters', type: String })
  password: string;
}
