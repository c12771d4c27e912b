import type { DataSource } from 'typeorm';
import type { ProjectsRepository } from './projects.repository';
import { ProjectSettingChecks } from './project-setting-checks';
import { ProjectsService } from './projects.service';
import { sha256Hex } from '../../platform/crypto';

/**
 * API key resolution: a fake ProjectsRepository whose key lookups wait until the test lets them
 * answer, from the keys the "table" holds at that moment.
 */
function fixture() {
  const keys = { secret: 'mr_sk_old', public: 'mr_pk_old' };
  const lookups: Array<{ digest: string; answer: () => void; fail: (err: Error) => void }> = [];
  const row = () => ({ id: 'project-1', secretKeyHash: sha256Hex(keys.secret), publicKeyHash: sha256Hex(keys.public) });
  const repository = {
    findByKeyDigestAnyProject: (digest: string) =>
      new Promise((resolve, reject) => {
        // The table as the query saw it when it ran; the answer comes when the test says.
        const seen = [row().secretKeyHash, row().publicKeyHash].includes(digest) ? row() : null;
        lookups.push({ digest, answer: () => resolve(seen), fail: reject });
      }),
    update: async () => {
      keys.secret = 'mr_sk_new';
      keys.public = 'mr_pk_new';
      return true;
    },
    findById: async () => row(),
  };
  const service = new ProjectsService(repository as unknown as ProjectsRepository, {} as DataSource, new ProjectSettingChecks());
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { service, lookups, settle };
}

describe('ProjectsService.resolveKey', () => {
  it('answers concurrent misses of one key with one lookup, then from the cache', async () => {
    const { service, lookups, settle } = fixture();
    const pending = Array.from({ length: 20 }, () => service.resolveKey('mr_sk_old'));
    await settle();
    expect(lookups).toHaveLength(1);
    lookups[0].answer();
    expect(await Promise.all(pending)).toEqual(Array(20).fill({ projectId: 'project-1', kind: 'secret' }));
    expect(await service.resolveKey('mr_sk_old')).toEqual({ projectId: 'project-1', kind: 'secret' });
    expect(lookups).toHaveLength(1);
  });

  it('never caches an answer read before a rotation: the waiting caller asks again after it', async () => {
    const { service, lookups, settle } = fixture();
    const pending = service.resolveKey('mr_sk_old');
    await settle();
    expect(lookups).toHaveLength(1);
    await service.rotateKeys('project-1');
    await settle();
    // The rotation aborted the first lookup (it still holds the old key); the caller asked again.
    expect(lookups).toHaveLength(2);
    lookups[0].answer();
    lookups[1].answer();
    expect(await pending).toBeNull();
    // Nothing from before the rotation was cached: the next call looks the old key up, and is refused.
    const next = service.resolveKey('mr_sk_old');
    await settle();
    expect(lookups).toHaveLength(3);
    lookups[2].answer();
    expect(await next).toBeNull();
  });

  it('asks again when the cache evicts a lookup under way (10,000 other keys asked meanwhile)', async () => {
    const { service, lookups, settle } = fixture();
    const pending = service.resolveKey('mr_sk_old');
    const others = Array.from({ length: 10_000 }, (_, i) => service.resolveKey(`mr_sk_unknown_${i}`));
    await settle();
    // The first lookup's entry was evicted (and aborted); the caller asked again.
    expect(lookups).toHaveLength(10_002);
    for (const lookup of lookups) lookup.answer();
    expect(await pending).toEqual({ projectId: 'project-1', kind: 'secret' });
    expect(new Set(await Promise.all(others))).toEqual(new Set([null]));
  });

  it('passes a failed lookup on to every waiting caller, and caches nothing', async () => {
    const { service, lookups, settle } = fixture();
    const pending = [service.resolveKey('mr_pk_old'), service.resolveKey('mr_pk_old')];
    await settle();
    lookups[0].fail(new Error('connection lost'));
    for (const p of pending) await expect(p).rejects.toThrow('connection lost');
    const next = service.resolveKey('mr_pk_old');
    await settle();
    expect(lookups).toHaveLength(2);
    lookups[1].answer();
    expect(await next).toEqual({ projectId: 'project-1', kind: 'public' });
  });
});
