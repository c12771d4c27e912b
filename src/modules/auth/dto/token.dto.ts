import { IsDefined, IsString, MaxLength, MinLength } from 'class-validator';

export class TokenDto {
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  token: string;
}
