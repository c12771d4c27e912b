import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, MaxLength, MinLength } from 'class-validator';

export class TokenDto {
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  @ApiProperty({ description: 'The token from the emailed link', type: String })
  token: string;
}
