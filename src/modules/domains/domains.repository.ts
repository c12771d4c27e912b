import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { Domain } from './entities/domain.entity';

export type NewDomain = Pick<Domain, 'domain' | 'status' | 'sesIdentity' | 'dkimSelector' | 'dkimPrivateKey' | 'dkimPublicKey'>;

/** The domains module's table: domains. A domain name has one owner across all projects. */
@Injectable()
export class DomainsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get domains() {
    return this.dataSource.getRepository(Domain);
  }

  /** A row of the project, not yet stored (`insert` stores it and fills its id and timestamps). */
  build(projectId: string, values: NewDomain): Domain {
    return this.domains.create({ ...values, projectId });
  }

  async insert(projectId: string, row: Domain): Promise<void> {
    await this.domains.insert(Object.assign(row, { projectId }));
  }

  /** Whether any project claimed this domain name (one owner per name). */
  isClaimedByAnyProject(domain: string): Promise<boolean> {
    return this.domains.existsBy({ domain });
  }

  async hasAny(projectId: string, status?: 'verified'): Promise<boolean> {
    return (await this.domains.count({ where: { projectId, ...(status ? { status } : {}) } })) > 0;
  }

  list(projectId: string): Promise<Domain[]> {
    return this.domains.find({ where: { projectId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  findOne(projectId: string, id: string): Promise<Domain | null> {
    return this.domains.findOneBy({ projectId, id });
  }

  async delete(projectId: string, id: string): Promise<void> {
    await this.domains.delete({ projectId, id });
  }

  /** Whether one of these names is a verified domain of the project. */
  hasVerifiedAmong(projectId: string, names: string[]): Promise<boolean> {
    return this.domains.existsBy({ projectId, domain: In(names), status: 'verified' });
  }

  /** The project's domains among these names (verified ones only unless `anyStatus`), with their DKIM keys. */
  signingCandidates(projectId: string, names: string[], anyStatus: boolean): Promise<Array<Pick<Domain, 'id' | 'domain' | 'dkimSelector' | 'dkimPrivateKey'>>> {
    return this.domains.find({
      where: { projectId, domain: In(names), ...(anyStatus ? {} : { status: 'verified' as const }) },
      select: { id: true, domain: true, dkimSelector: true, dkimPrivateKey: true },
    });
  }

  /** A check's outcome. */
  async saveCheck(projectId: string, id: string, outcome: Pick<Domain, 'records' | 'status' | 'verifiedAt' | 'lastCheckedAt'>): Promise<void> {
    await this.domains.update({ projectId, id }, outcome);
  }

  /**
   * Inbound mail's routing, across projects: the projects owning a verified domain (any domain
   * with `anyStatus`) that is, or is a parent of, each recipient's domain, with the recipients
   * each one gets. One statement whatever the number of addresses.
   */
  receivingAcrossProjects(addresses: string[], anyStatus: boolean): Promise<Array<{ project_id: string; address: string }>> {
    return this.dataSource.query(
      `SELECT DISTINCT d.project_id, r.address
         FROM unnest($1::text[]) AS r(address)
         JOIN domains d ON (d.status = 'verified' OR $2)
          AND (split_part(r.address, '@', 2) = d.domain OR right(split_part(r.address, '@', 2), length(d.domain) + 1) = '.' || d.domain)`,
      [addresses, anyStatus],
    );
  }

  /** Keyset page of domains of every project not checked in the last 4 minutes, for the background round. */
  dueForCheckAcrossProjects(afterId: string | null, limit: number): Promise<Domain[]> {
    const query = this.domains
      .createQueryBuilder('d')
      .where(`(d.last_checked_at IS NULL OR d.last_checked_at < now() - interval '4 minutes')`)
      .orderBy('d.id', 'ASC')
      .limit(limit);
    if (afterId) query.andWhere('d.id > :afterId', { afterId });
    return query.getMany();
  }
}
