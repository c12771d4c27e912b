import type { Request } from 'express';
import type { Principal, UsersService } from '../auth';
import { AuditLogService, filterOf } from './audit-log.service';
import type { AuditLogRepository } from './audit-log.repository';
import type { NewAuditEntry } from './audit-log.rows';
import { type AuditedSpec, bodyFieldsOf, fromParam } from './audited.decorator';
import { IsOptional } from 'class-validator';

class PatchDto {
  @IsOptional()
  name?: string;
}

function fixture(insert: (entry: NewAuditEntry) => Promise<void> = async () => undefined) {
  const written: NewAuditEntry[] = [];
  const repository = {
    insert: jest.fn(async (entry: NewAuditEntry) => {
      await insert(entry);
      written.push(entry);
    }),
    page: jest.fn(async () => ({ rows: [], total: 0 })),
  };
  const users = { emailsOf: jest.fn(async (ids: string[]) => new Map(ids.map((id) => [id, `${id}@example.com`]))) };
  const service = new AuditLogService(repository as unknown as AuditLogRepository, users as unknown as UsersService);
  return { service, repository, written };
}

const request = (user: Principal, over: Partial<Request> = {}) => ({ user, ip: '203.0.113.7', id: 'req-1', params: { id: 'w-1' }, body: {}, ...over }) as unknown as Request;
const deleted: AuditedSpec = { action: 'webhook.deleted', target: { type: 'webhook', id: fromParam('id') } };

describe('AuditLogService.recordCall', () => {
  it("writes a session's call as its user, with the address it has", async () => {
    const { service, written } = fixture();
    await service.recordCall(deleted, { req: request({ via: 'session', userId: 'u-1', projectId: 'p-1', role: 'ADMIN' }), result: undefined });
    expect(written).toEqual([
      { projectId: 'p-1', actorType: 'user', actorId: 'u-1', actorEmail: 'u-1@example.com', action: 'webhook.deleted', targetType: 'webhook', targetId: 'w-1', changes: null, ip: '203.0.113.7' },
    ]);
  });

  it("writes a secret-key call as the key, by its id; the project may come from the path", async () => {
    const { service, written } = fixture();
    const spec: AuditedSpec = { action: 'project.settings_updated', project: fromParam('id'), target: { type: 'project', id: fromParam('id') }, changes: bodyFieldsOf(PatchDto) };
    await service.recordCall(spec, { req: request({ via: 'secret_key', projectId: 'p-9', keyId: 'sk_abcdef0' }, { params: { id: 'p-1' }, body: { name: 'New' } }), result: {} });
    expect(written[0]).toMatchObject({ projectId: 'p-1', actorType: 'key', actorId: 'sk_abcdef0', actorEmail: null, targetType: 'project', targetId: 'p-1', changes: ['name'] });
  });

  it('records nothing for a call that changed nothing', async () => {
    const { service, repository } = fixture();
    const spec: AuditedSpec = { action: 'webhook.updated', target: { type: 'webhook', id: fromParam('id') }, changes: bodyFieldsOf(PatchDto) };
    await service.recordCall(spec, { req: request({ via: 'session', userId: 'u-1', projectId: 'p-1' }, { body: { other: 1 } }), result: {} });
    expect(repository.insert).not.toHaveBeenCalled();
  });

  it('never throws: a failed write, or a declaration that does not fit the call, is logged and the action stands', async () => {
    const { service } = fixture(async () => {
      throw new Error('connection lost');
    });
    await expect(service.recordCall(deleted, { req: request({ via: 'session', userId: 'u-1', projectId: 'p-1' }), result: undefined })).resolves.toBeUndefined();
    const { service: other, repository } = fixture();
    await expect(other.recordCall(deleted, { req: request({ via: 'session', userId: 'u-1', projectId: 'p-1' }, { params: {} }), result: undefined })).resolves.toBeUndefined();
    await expect(other.recordCall(deleted, { req: request({ via: 'public_key', projectId: 'p-1' }), result: undefined })).resolves.toBeUndefined();
    expect(repository.insert).not.toHaveBeenCalled();
  });
});

describe('AuditLogService.list', () => {
  it('is for OWNER and ADMIN sessions and the secret key; a MEMBER is refused before any read', async () => {
    const { service, repository } = fixture();
    await expect(service.list({ via: 'session', userId: 'u', projectId: 'p', role: 'MEMBER' }, 'p', {})).rejects.toMatchObject({ statusCode: 403 });
    expect(repository.page).not.toHaveBeenCalled();
    await expect(service.list({ via: 'session', userId: 'u', projectId: 'p', role: 'ADMIN' }, 'p', {})).resolves.toEqual({ data: [], cursor: null, hasMore: false, total: 0 });
    await expect(service.list({ via: 'secret_key', projectId: 'p', keyId: 'sk_0000000' }, 'p', {})).resolves.toMatchObject({ total: 0 });
  });

  it('refuses a cursor it did not give with 400', async () => {
    const { service } = fixture();
    await expect(service.list({ via: 'secret_key', projectId: 'p' }, 'p', { cursor: 'bm90LWEtY3Vyc29y' })).rejects.toMatchObject({ statusCode: 400 });
  });
});

describe('filterOf', () => {
  it('takes the bounds inclusive and a user or key id in any case', () => {
    expect(filterOf({ from: '2026-01-01', to: '2026-01-31T23:59:59Z', actorId: 'SK_ABCDEF0', action: 'domain.created' })).toEqual({
      action: 'domain.created',
      actorId: 'sk_abcdef0',
      from: new Date('2026-01-01T00:00:00Z'),
      to: new Date('2026-01-31T23:59:59Z'),
    });
    expect(filterOf({})).toEqual({ action: undefined, actorId: undefined, from: undefined, to: undefined });
  });

  it('answers 422 naming the field for from after to, and for a date the database cannot hold', () => {
    const fields = (query: Parameters<typeof filterOf>[0]) => {
      try {
        filterOf(query);
      } catch (err) {
        return (err as { extra: { errors: Array<{ field: string }> } }).extra.errors.map((e) => e.field);
      }
      return [];
    };
    expect(fields({ from: '2026-02-01', to: '2026-01-01' })).toEqual(['to']);
    expect(fields({ from: '+275760-09-13T00:00:00Z' })).toEqual(['from']);
    expect(fields({ to: '-000001-01-01T00:00:00Z' })).toEqual(['to']);
    expect(fields({ from: '2026-01-01', to: '2026-01-01' })).toEqual([]);
  });
});
