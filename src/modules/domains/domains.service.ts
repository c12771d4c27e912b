import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { randomHex } from '../../platform/crypto';
import { logger } from '../../platform/logging/logger';
import { decryptPrivateKey, encryptPrivateKey, generateDkimKeyPair } from './dkim-keys';
import { DnsResolver } from './dns/dns-resolver';
import { ownDkimRecords, sesRecords, withBounceRecords } from './dns/domain-records';
import { bounceDomainOf } from './bounce-domain';
import { domainAndParents, domainOfEmail, normalizeDomainName } from './domain-name';
import { domainAlreadyClaimed, domainInUse, domainNotFound, domainNotVerified, invalidDomainName, warmupCeilingBelowStart } from './domains.errors';
import type { UpdateDomainDto } from './dto/update-domain.dto';
import { DomainResponse, toDomainResponse } from './dto/domain.response';
import { DomainsRepository } from './domains.repository';
import type { Domain } from './entities/domain.entity';
import { SesIdentities } from './ses/ses-identities';
import { checkDomainRecords } from './dns/check-domain';
import { SetupProbes } from '../../platform/usage/setup-probes.registry';
import { UsageRegistry } from '../../platform/usage/usage.registry';
import { countDomainUsage } from './domain-usage';
import { isUniqueViolation } from '../../platform/database/pg-errors';
import { ProjectSettingChecks } from '../projects';

/** nodemailer's `dkim` option. */
export interface DkimSigningKey {
  domainName: string;
  keySelector: string;
  privateKey: string;
}

const KEY_CACHE_MAX = 1_000;

@Injectable()
export class DomainsService {
  private readonly log = logger('domains');
  /** Decrypted DKIM keys by domain id: signing happens per message, decryption need not. */
  private readonly keyCache = new Map<string, string>();

  constructor(
    private readonly repository: DomainsRepository,
    @InjectConfig() private readonly config: AppConfig,
    private readonly dns: DnsResolver,
    private readonly ses: SesIdentities,
    private readonly usage: UsageRegistry,
    setup: SetupProbes,
    settingChecks: ProjectSettingChecks,
  ) {
    settingChecks.registerSender((projectId, email) => this.senderAllowed(projectId, email));
    setup.register('hasDomain', (projectId) => this.repository.hasAny(projectId));
    // With verification off every domain answers as verified (toDomainResponse) while its row stays pending.
    setup.register('hasVerifiedDomain', (projectId) => this.repository.hasAny(projectId, this.verificationOff ? undefined : 'verified'));
  }

  private get verificationOff(): boolean {
    return this.config.domainVerification === 'off';
  }

  async create(projectId: string, input: string): Promise<DomainResponse> {
    const name = normalizeDomainName(input);
    if (!name) throw invalidDomainName(input);
    if (await this.repository.isClaimedByAnyProject(name)) throw domainAlreadyClaimed(name);

    const row = this.repository.build(projectId, { domain: name, status: 'pending', sesIdentity: null, dkimSelector: null, dkimPrivateKey: null, dkimPublicKey: null });
    if (this.config.email.transport === 'ses') {
      const identity = await this.ses.register(name);
      row.sesIdentity = identity;
      row.records = sesRecords(name, identity.region, identity.dkimTokens, identity.mailFromDomain);
    } else {
      const keys = await generateDkimKeyPair();
      // A fresh selector per key: re-adding a domain never collides with a stale, cached record.
      row.dkimSelector = `mr${randomHex(4)}`;
      row.dkimPrivateKey = encryptPrivateKey(this.config.appSecret, keys.privateKeyPem);
      row.dkimPublicKey = keys.publicKeyBase64;
      row.records = ownDkimRecords(name, row.dkimSelector, keys.publicKeyBase64);
    }
    this.syncBounceRecords(row);
    try {
      await this.repository.insert(projectId, row);
    } catch (error) {
      if (isUniqueViolation(error)) throw domainAlreadyClaimed(name);
      throw error;
    }
    return (await this.respond(projectId, [row]))[0];
  }

  /** The path's project must be the caller's own: anything else is simply not found. */
  async list(projectId: string, pathProjectId: string): Promise<DomainResponse[]> {
    if (pathProjectId !== projectId) throw domainNotFound();
    const rows = await this.repository.list(projectId);
    return this.respond(projectId, rows.map((row) => this.syncBounceRecords(row)));
  }

  /** Forced check: resolves the records now and returns the fresh statuses. */
  async verify(projectId: string, id: string): Promise<DomainResponse> {
    const row = await this.findOne(projectId, id);
    return (await this.respond(projectId, [await this.check(row)]))[0];
  }

  /** One domain, its warm-up standing included. */
  async get(projectId: string, id: string): Promise<DomainResponse> {
    const row = await this.findOne(projectId, id);
    return (await this.respond(projectId, [this.syncBounceRecords(row)]))[0];
  }

  /** `PATCH /domains/:id`: warm-up settings merged over the stored ones (a ceiling below the start is 422). */
  async update(projectId: string, id: string, dto: UpdateDomainDto): Promise<DomainResponse> {
    const row = await this.findOne(projectId, id);
    const w = dto.warmup;
    const settings = {
      warmupEnabled: w.enabled ?? row.warmupEnabled,
      warmupStartPerDay: w.startPerDay ?? row.warmupStartPerDay,
      warmupGrowthPercent: w.growthPercent ?? row.warmupGrowthPercent,
      warmupMaxPerDay: w.maxPerDay === undefined ? row.warmupMaxPerDay : w.maxPerDay,
    };
    if (settings.warmupMaxPerDay !== null && settings.warmupMaxPerDay < settings.warmupStartPerDay) throw warmupCeilingBelowStart(settings.warmupMaxPerDay, settings.warmupStartPerDay);
    await this.repository.saveWarmup(projectId, row.id, settings);
    return this.get(projectId, row.id);
  }

  private async respond(projectId: string, rows: Domain[]): Promise<DomainResponse[]> {
    const warmup = await this.repository.warmupStatus(projectId, rows.map((r) => r.id));
    return rows.map((row) => toDomainResponse(row, this.verificationOff, warmup.get(row.id)));
  }

  async remove(projectId: string, id: string): Promise<void> {
    const row = await this.findOne(projectId, id);
    const usage = await countDomainUsage(this.usage, projectId, row.domain);
    if (usage.templates > 0 || usage.campaigns > 0) throw domainInUse(row.domain, usage);
    // The SES identity goes first: if SES refuses, the domain stays and the delete can be retried.
    // (With another transport configured now, the AWS account may not be reachable: leave it.)
    if (row.sesIdentity && this.config.email.transport === 'ses') await this.ses.remove(row.sesIdentity, row.domain);
    await this.repository.delete(projectId, row.id);
    this.keyCache.delete(row.id);
  }

  /** Throws 403 DOMAIN_NOT_VERIFIED unless the sender's domain or a parent is a verified domain of the project. */
  async assertSenderAllowed(projectId: string, fromEmail: string): Promise<void> {
    if (await this.senderAllowed(projectId, fromEmail)) return;
    throw domainNotVerified(domainOfEmail(fromEmail) ?? (fromEmail.slice(fromEmail.lastIndexOf('@') + 1) || fromEmail));
  }

  /** Whether the sender's domain or a parent is a verified domain of the project (any domain while DOMAIN_VERIFICATION=off). */
  async senderAllowed(projectId: string, fromEmail: string): Promise<boolean> {
    if (this.verificationOff) return true;
    const domain = domainOfEmail(fromEmail);
    if (!domain) return false;
    return this.repository.hasVerifiedAmong(projectId, domainAndParents(domain));
  }

  /** DKIM options for the most specific verified domain covering the sender; null when none (or SES signs). */
  async dkimKeyFor(projectId: string, fromEmail: string): Promise<DkimSigningKey | null> {
    const domain = domainOfEmail(fromEmail);
    if (!domain || this.config.email.transport === 'ses') return null;
    const candidates = domainAndParents(domain);
    const rows = await this.repository.signingCandidates(projectId, candidates, this.verificationOff);
    const best = rows.filter((r) => r.dkimSelector && r.dkimPrivateKey).sort((a, b) => b.domain.length - a.domain.length)[0];
    if (!best) return null;
    return { domainName: best.domain, keySelector: best.dkimSelector!, privateKey: this.privateKey(best) };
  }

  /** Resolves a domain's records and stores the outcome; a verified domain whose records vanished goes back to pending. */
  async check(row: Domain): Promise<Domain> {
    this.syncBounceRecords(row);
    const result = await checkDomainRecords(this.dns, row);
    const now = new Date();
    const status = result.verified ? 'verified' : 'pending';
    const verifiedAt = result.verified ? (row.status === 'verified' && row.verifiedAt ? row.verifiedAt : now) : null;
    await this.repository.saveCheck(row.projectId, row.id, { records: result.records, status, verifiedAt, lastCheckedAt: now });
    if (status !== row.status) this.log.info({ projectId: row.projectId, domain: row.domain, status }, 'domain verification status changed');
    return Object.assign(row, { records: result.records, status, verifiedAt, lastCheckedAt: now });
  }

  /** The bounce subdomain's MX and SPF follow `INBOUND_MX_HOST` (never with SES, whose MAIL FROM records it lists itself). */
  private syncBounceRecords(row: Domain): Domain {
    if (this.config.email.transport !== 'ses') row.records = withBounceRecords(row.records, bounceDomainOf(row.domain), this.config.inbound.mxHost);
    return row;
  }

  /**
   * Inbound mail's routing: the projects owning a verified domain (any domain with verification
   * off) that is, or is a parent of, each recipient's domain, with the recipients each one gets.
   * Addresses are bare and lower-cased by the caller; one statement whatever their number.
   */
  async projectsReceiving(addresses: string[]): Promise<Map<string, string[]>> {
    const rows = await this.repository.receivingAcrossProjects(addresses, this.verificationOff);
    const byProject = new Map<string, string[]>();
    for (const row of rows) byProject.set(row.project_id, [...(byProject.get(row.project_id) ?? []), row.address]);
    return byProject;
  }

  /** Keyset page of domains (any project) not checked in the last 4 minutes, for the background round. */
  dueForCheck(afterId: string | null, limit: number): Promise<Domain[]> {
    return this.repository.dueForCheckAcrossProjects(afterId, limit);
  }

  private async findOne(projectId: string, id: string): Promise<Domain> {
    const row = await this.repository.findOne(projectId, id);
    if (!row) throw domainNotFound();
    return row;
  }

  private privateKey(row: Pick<Domain, 'id' | 'dkimPrivateKey'>): string {
    let pem = this.keyCache.get(row.id);
    if (!pem) {
      pem = decryptPrivateKey(this.config.appSecret, row.dkimPrivateKey!);
      if (this.keyCache.size >= KEY_CACHE_MAX) this.keyCache.clear();
      this.keyCache.set(row.id, pem);
    }
    return pem;
  }
}
