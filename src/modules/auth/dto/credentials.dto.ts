import { IsDefined, IsEmail, IsString, MaxLength, MinLength } from 'class-validator';

export class CredentialsDto {
  @IsDefined()
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(254)
  email: string;

  @IsDefined()
  @IsString()
  @MinLength(8)
  @MaxLength(256)
  password: string;
}
