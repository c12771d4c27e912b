import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { Public } from './auth.decorators';

export interface PublicConfigResponse {
  signupDisabled: boolean;
  emailTransport: string;
  domainVerification: boolean;
  billing: boolean;
  oauthProviders: string[];
  publicUrl: string;
}

/** What the dashboard may show: which integrations are on. Never secrets. */
@ApiTags('config')
@Controller('config')
export class PublicConfigController {
  constructor(@InjectConfig() private readonly config: AppConfig) {}

  @Public()
  @Get()
  get(): PublicConfigResponse {
    return {
      signupDisabled: this.config.signupDisabled,
      emailTransport: this.config.email.transport,
      domainVerification: this.config.domainVerification === 'dns',
      billing: Boolean(this.config.stripeSecretKey),
      oauthProviders: [],
      publicUrl: this.config.publicUrl,
    };
  }
}
