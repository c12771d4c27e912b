import type { AuthService, UsersService } from '../auth';
import { AccountService } from './account.service';
import type { ProjectsRepository } from './projects.repository';
import type { ProjectsService } from './projects.service';

/** `joinsLate`: a project a member joins between the check and its deletion (its locked re-check finds them). */
function fixture(memberships: Array<{ id: string; name: string; role: 'OWNER' | 'ADMIN' | 'MEMBER'; team: boolean }>, passwordOk = true, joinsLate?: string) {
  const calls: string[] = [];
  const auth = {
    confirmPassword: jest.fn(async () => {
      if (!passwordOk) throw Object.assign(new Error('The password is not correct'), { statusCode: 403 });
    }),
  };
  const projects = {
    listForUser: async () => memberships.map((m) => ({ project: { id: m.id, name: m.name }, role: m.role })),
    delete: jest.fn(async (id: string, opts: { unlessShared?: boolean }) => {
      if (opts.unlessShared && id === joinsLate) return false;
      calls.push(`project ${id}`);
      return true;
    }),
  };
  const repository = { hasTeamMembers: async (id: string) => memberships.find((m) => m.id === id)!.team };
  const users = { delete: jest.fn(async (id: string) => void calls.push(`user ${id}`)) };
  const service = new AccountService(auth as unknown as AuthService, users as unknown as UsersService, projects as unknown as ProjectsService, repository as unknown as ProjectsRepository);
  return { service, calls, auth };
}

describe('AccountService.deleteAccount', () => {
  it('deletes each owned project (not those it is only a member of), then the user', async () => {
    const { service, calls, auth } = fixture([
      { id: 'a', name: 'Alone', role: 'OWNER', team: false },
      { id: 'b', name: 'Theirs', role: 'ADMIN', team: true },
      { id: 'c', name: 'Solo', role: 'OWNER', team: false },
    ]);
    await service.deleteAccount('u-1', 'secret-password', '203.0.113.7');
    expect(auth.confirmPassword).toHaveBeenCalledWith('u-1', 'secret-password', '203.0.113.7');
    expect(calls).toEqual(['project a', 'project c', 'user u-1']);
  });

  it('refuses with 409 naming every owned project that has other members, and deletes nothing', async () => {
    const { service, calls } = fixture([
      { id: 'a', name: 'Alone', role: 'OWNER', team: false },
      { id: 'b', name: 'Team', role: 'OWNER', team: true },
      { id: 'c', name: 'Crew', role: 'OWNER', team: true },
    ]);
    const refusal = service.deleteAccount('u-1', 'secret-password');
    await expect(refusal).rejects.toMatchObject({ statusCode: 409, message: 'You own projects with other members: "Team", "Crew"', extra: { details: { projects: [{ id: 'b', name: 'Team' }, { id: 'c', name: 'Crew' }] } } });
    expect(calls).toEqual([]);
  });

  it('keeps a project a member joined after the check, deletes no user, and answers 409 naming it', async () => {
    const { service, calls } = fixture(
      [
        { id: 'a', name: 'Alone', role: 'OWNER', team: false },
        { id: 'b', name: 'Joined', role: 'OWNER', team: false },
      ],
      true,
      'b',
    );
    await expect(service.deleteAccount('u-1', 'secret-password')).rejects.toMatchObject({ statusCode: 409, message: 'You own a project with other members: "Joined"' });
    expect(calls).toEqual(['project a']);
  });

  it('deletes nothing when the password is wrong', async () => {
    const { service, calls } = fixture([{ id: 'a', name: 'Alone', role: 'OWNER', team: false }], false);
    await expect(service.deleteAccount('u-1', 'wrong')).rejects.toMatchObject({ statusCode: 403 });
    expect(calls).toEqual([]);
  });
});
