import { SingletonLocks } from './singleton-locks';

// Embedded mode keeps the locks in the process (PGlite is one session): what a process holds is
// held once, across names and spaces, and given back whatever the work does.
describe('SingletonLocks (in the process)', () => {
  const locks = () => new SingletonLocks('postgres://unused', true);

  it('takes each free name once, and a held name again only once given back', async () => {
    const l = locks();
    expect(await l.tryLock(1, ['a', 'b', 'a'])).toEqual(['a', 'b']);
    expect(await l.tryLock(1, ['a', 'c'])).toEqual(['c']);
    // Another space is another lock.
    expect(await l.tryLock(2, ['a'])).toEqual(['a']);
    await l.unlock(1, ['a']);
    expect(await l.tryLock(1, ['a', 'b'])).toEqual(['a']);
  });

  it('runs the work holding the lock, answers `whenHeld` while it is held, and gives it back when the work throws', async () => {
    const l = locks();
    let inner: string | undefined;
    const outer = await l.withLock(1, 'round', 'held', async () => {
      inner = await l.withLock(1, 'round', 'held', () => Promise.resolve('ran'));
      return 'ran';
    });
    expect({ outer, inner }).toEqual({ outer: 'ran', inner: 'held' });
    await expect(l.withLock(1, 'round', 'held', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await l.tryLock(1, ['round'])).toEqual(['round']);
  });

  it('takes nothing once the application shuts down', async () => {
    const l = locks();
    await l.onApplicationShutdown();
    expect(await l.tryLock(1, ['a'])).toEqual([]);
  });
});
