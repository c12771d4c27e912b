import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, MaxLength, MinLength } from 'class-validator';

export class CreateProjectDto {
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  @ApiProperty({ description: 'Name', type: String })
  name: string;
}
