import { Injectable, OnModuleDestroy } from '@nestjs/common';
import type { SESClient } from '@aws-sdk/client-ses';
import { InjectConfig } from '../../../config/config.module';
import type { AppConfig } from '../../../config/config';
import { sesRegistrationFailed, sesRemovalFailed } from '../domains.errors';
import type { SesIdentity } from '../entities/domain.entity';
import { sdks } from '../../../platform/sdks';

/** Registers a sending domain as an SES identity (Easy DKIM + custom MAIL FROM) and returns what to publish; removes it again. */
@Injectable()
export class SesIdentities implements OnModuleDestroy {
  /** By region: an identity lives in the region it was registered in, even if AWS_REGION changes later. */
  private readonly clients = new Map<string, SESClient>();

  constructor(@InjectConfig() private readonly config: AppConfig) {}

  async register(domain: string): Promise<SesIdentity> {
    const region = this.config.aws.region ?? 'us-east-1';
    const client = this.sesClient(region);
    const mailFromDomain = `bounce.${domain}`;
    try {
      const { VerifyDomainDkimCommand, SetIdentityMailFromDomainCommand } = sdks.ses();
      const dkim = await client.send(new VerifyDomainDkimCommand({ Domain: domain }));
      // UseDefaultValue: until the MX resolves, SES keeps sending with its own MAIL FROM instead of rejecting.
      await client.send(new SetIdentityMailFromDomainCommand({ Identity: domain, MailFromDomain: mailFromDomain, BehaviorOnMXFailure: 'UseDefaultValue' }));
      if (!dkim.DkimTokens?.length) throw new Error('no DKIM tokens returned');
      return { region, dkimTokens: dkim.DkimTokens, mailFromDomain };
    } catch (error) {
      throw sesRegistrationFailed(domain, (error as Error).message || (error as Error).name);
    }
  }

  /** Deletes the identity (SES answers success for one that no longer exists). */
  async remove(identity: SesIdentity, domain: string): Promise<void> {
    try {
      await this.sesClient(identity.region).send(new (sdks.ses().DeleteIdentityCommand)({ Identity: domain }));
    } catch (error) {
      throw sesRemovalFailed(domain, (error as Error).message || (error as Error).name);
    }
  }

  onModuleDestroy(): void {
    for (const client of this.clients.values()) client.destroy();
  }

  private sesClient(region: string): SESClient {
    const { accessKeyId, secretAccessKey, endpointUrlSes } = this.config.aws;
    let client = this.clients.get(region);
    if (!client) {
      client = new (sdks.ses().SESClient)({
        region,
        endpoint: endpointUrlSes,
        credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
        maxAttempts: 2,
        requestHandler: { requestTimeout: 5_000, connectionTimeout: 3_000 },
      });
      this.clients.set(region, client);
    }
    return client;
  }
}
