import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, MaxLength, MinLength } from 'class-validator';
import { TokenDto } from './token.dto';

export class ResetPasswordDto extends TokenDto {
  @IsDefined()
  @IsString()
  @MinLength(8)
  @MaxLength(256)
  @ApiProperty({ description: 'Password, 8 to 256 characters', type: String })
  password: string;
}
