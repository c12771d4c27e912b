import { IsDefined, IsString, MaxLength, MinLength } from 'class-validator';
import { TokenDto } from './token.dto';

export class ResetPasswordDto extends TokenDto {
  @IsDefined()
  @IsString()
  @MinLength(8)
  @MaxLength(256)
  password: string;
}
