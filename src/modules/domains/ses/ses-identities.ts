import { Injectable } from '@nestjs/common';
import { SESClient, SetIdentityMailFromDomainCommand, VerifyDomainDkimCommand } from '@aws-sdk/client-ses';
import { InjectConfig } from '../../../config/config.module';
import type { AppConfig } from '../../../config/config';
import { sesRegistrationFailed } from '../domains.errors';
import type { SesIdentity } from '../entities/domain.entity';

/** Registers a sending domain as an SES identity (Easy DKIM + custom MAIL FROM) and returns what to publish. */
@Injectable()
export class SesIdentities {
  private client?: SESClient;

  constructor(@InjectConfig() private readonly config: AppConfig) {}

  async register(domain: string): Promise<SesIdentity> {
    const region = this.config.aws.region ?? 'us-east-1';
    const client = this.sesClient(region);
    const mailFromDomain = `bounce.${domain}`;
    try {
      const dkim = await client.send(new VerifyDomainDkimCommand({ Domain: domain }));
      // UseDefaultValue: until the MX resolves, SES keeps sending with its own MAIL FROM instead of rejecting.
      await client.send(new SetIdentityMailFromDomainCommand({ Identity: domain, MailFromDomain: mailFromDomain, BehaviorOnMXFailure: 'UseDefaultValue' }));
      if (!dkim.DkimTokens?.length) throw new Error('no DKIM tokens returned');
      return { region, dkimTokens: dkim.DkimTokens, mailFromDomain };
    } catch (error) {
      throw sesRegistrationFailed(domain, (error as Error).message || (error as Error).name);
    }
  }

  private sesClient(region: string): SESClient {
    const { accessKeyId, secretAccessKey, endpointUrlSes } = this.config.aws;
    this.client ??= new SESClient({
      region,
      endpoint: endpointUrlSes,
      credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
      maxAttempts: 2,
      requestHandler: { requestTimeout: 5_000, connectionTimeout: 3_000 },
    });
    return this.client;
  }
}
