import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsEmail, MaxLength } from 'class-validator';

export class EmailDto {
  @IsDefined()
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(254)
  @ApiProperty({ description: 'Email address', type: String })
  email: string;
}
