import { IsDefined, IsString, MaxLength, MinLength } from 'class-validator';

export class CreateProjectDto {
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name: string;
}
