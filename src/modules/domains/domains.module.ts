import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DnsResolver } from './dns/dns-resolver';
import { DomainVerificationScheduler } from './worker/domain-verification.scheduler';
import { DomainsController } from './domains.controller';
import { DomainsRepository } from './domains.repository';
import { DomainsService } from './domains.service';
import { Domain } from './entities/domain.entity';
import { SesIdentities } from './ses/ses-identities';

@Module({
  imports: [TypeOrmModule.forFeature([Domain])],
  controllers: [DomainsController],
  providers: [DomainsRepository, DomainsService, DnsResolver, SesIdentities, DomainVerificationScheduler],
  exports: [DomainsService, DnsResolver],
})
export class DomainsModule {}
