import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { SUPPORTED_LOCALES, type Locale } from '../../../../i18n/locales';

export class ConfirmationEmailQuery {
  @ApiPropertyOptional({ description: "Language of the message (default: the project's language)", enum: SUPPORTED_LOCALES })
  @IsOptional()
  @IsIn(SUPPORTED_LOCALES, { message: `locale must be one of ${SUPPORTED_LOCALES.join(', ')}` })
  locale?: Locale;
}

export class ConfirmationEmailResponse {
  @ApiProperty({ description: 'Language of the message', enum: SUPPORTED_LOCALES })
  locale: Locale;
  @ApiProperty({ description: 'Subject, as Liquid over confirmProject and confirmEmail', type: String })
  subject: string;
  @ApiProperty({ description: 'HTML body, as Liquid over confirmProject, confirmEmail and confirmUrl', type: String })
  body: string;
}
