import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProjectsModule } from '../projects';
import { DnsResolver } from './dns/dns-resolver';
import { DomainVerificationScheduler } from './worker/domain-verification.scheduler';
import { DomainsController } from './domains.controller';
import { DomainsRepository } from './domains.repository';
import { DomainsService } from './domains.service';
import { Domain } from './entities/domain.entity';
import { DomainSendCount } from './entities/domain-send-count.entity';
import { WarmupLedger } from './warmup/warmup-ledger.store';
import { SesIdentities } from './ses/ses-identities';

@Module({
  imports: [ProjectsModule, TypeOrmModule.forFeature([Domain, DomainSendCount])],
  controllers: [DomainsController],
  providers: [DomainsRepository, DomainsService, DnsResolver, SesIdentities, DomainVerificationScheduler, WarmupLedger],
  exports: [DomainsService, DnsResolver, WarmupLedger],
})
export class DomainsModule {}
