import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, MaxLength } from 'class-validator';

export class DeleteAccountDto {
  @IsDefined({ message: 'password is required' })
  @IsString()
  @MaxLength(256)
  @ApiProperty({ description: 'Your password, to confirm', type: String })
  password!: string;
}
