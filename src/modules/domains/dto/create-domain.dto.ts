import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';

export class CreateDomainDto {
  /** Host-name rules (IDN → punycode, lowercase) are applied by the service, which answers 422 on a bad name. */
  @IsString({ context: { code: 'invalid_type' } })
  @ApiProperty({ description: 'Domain name, e.g. example.com', type: String })
  domain: string;
}
