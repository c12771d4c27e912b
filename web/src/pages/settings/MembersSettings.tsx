import { useQuery, useQueryClient } from '@tanstack/react-query';
import { accountApi, useMe, useProject } from '../../api/account';
import { ApiError } from '../../api/errors';
import { qk } from '../../api/queryKeys';
import type { AssignableRole, Member, Role } from '../../api/types';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/Dialogs';
import { ErrorMessage } from '../../components/ErrorMessage';
import { SelectField, TextField } from '../../components/Fields';
import { Badge } from '../../components/Feedback';
import { QueryView } from '../../components/QueryView';
import { fieldError, formValues, useApiMutation } from '../../lib/forms';
import { formatDate } from '../../lib/format';
import { useProjectId } from '../../lib/project';

const ROLE_HELP: Record<Role, string> = {
  OWNER: 'Everything, and cannot be removed',
  ADMIN: 'Everything: settings, keys, members, billing',
  MEMBER: 'Contacts, templates, campaigns… but not settings, keys or members',
};

function RoleSelect({ member, disabled }: { member: Member; disabled: boolean }) {
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const change = useApiMutation({
    mutationFn: (role: AssignableRole) => accountApi.updateMember(projectId, member.userId, role),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'members') }),
  });
  return (
    <>
      <select
        aria-label={`Role of ${member.email}`}
        value={member.role}
        disabled={disabled || change.isPending}
        onChange={(e) => void change.submit(e.target.value as AssignableRole)}
      >
        <option value="ADMIN">Admin</option>
        <option value="MEMBER">Member</option>
      </select>
      <ErrorMessage error={change.error} title="Role not changed" />
    </>
  );
}

export default function MembersSettings() {
  const projectId = useProjectId();
  const me = useMe();
  const project = useProject(projectId);
  const queryClient = useQueryClient();
  const members = useQuery({ queryKey: qk.p(projectId, 'members'), queryFn: () => accountApi.members(projectId) });
  const add = useApiMutation({
    mutationFn: (body: { email: string; role: AssignableRole }) => accountApi.addMember(projectId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'members') }),
  });
  const canManage = project.data?.role === 'OWNER' || project.data?.role === 'ADMIN';
  // 404: no Mailroom account has this address; 409: already a member. Both are about the email.
  const emailProblem =
    add.error instanceof ApiError && add.error.status === 404
      ? `${add.error.message}. They need to sign up first, then you can add them.`
      : add.error instanceof ApiError && add.error.status === 409
        ? add.error.message
        : fieldError(add.error, 'email');
  return (
    <>
      {canManage && (
        <form
          className="panel inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            const form = e.currentTarget;
            const v = formValues(form);
            void add.submit({ email: (v.email ?? '').trim(), role: v.role as AssignableRole }).then((m) => m && form.reset());
          }}
          noValidate
        >
          <TextField label="Member's email" name="email" type="email" required hint="Someone who has a Mailroom account." error={emailProblem} />
          <SelectField label="Role" name="role" defaultValue="MEMBER" error={fieldError(add.error, 'role')}>
            <option value="MEMBER">Member</option>
            <option value="ADMIN">Admin</option>
          </SelectField>
          <Button type="submit" variant="primary" pending={add.isPending} pendingLabel="Adding…">
            Add member
          </Button>
          {!emailProblem && <ErrorMessage error={add.error} fields={['email', 'role']} title="Could not add" />}
        </form>
      )}
      <QueryView query={members} title="Could not load the members">
        {(list) => (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Members</caption>
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Member since</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((m) => {
                  const self = m.userId === me.data?.id;
                  const fixed = m.role === 'OWNER' || self || !canManage;
                  return (
                    <tr key={m.userId}>
                      <td>
                        {m.email} {self && <Badge>you</Badge>}
                      </td>
                      <td>
                        {fixed ? <span title={ROLE_HELP[m.role]}>{m.role.toLowerCase()}</span> : <RoleSelect member={m} disabled={false} />}
                        <div className="muted">{ROLE_HELP[m.role]}</div>
                      </td>
                      <td>{formatDate(m.createdAt)}</td>
                      <td>
                        {!fixed && (
                          <ConfirmButton
                            label="Remove"
                            title={`Remove ${m.email}?`}
                            description="They lose access to this project at once."
                            confirmLabel="Remove member"
                            onConfirm={async () => {
                              await accountApi.removeMember(projectId, m.userId);
                              await queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'members') });
                            }}
                          />
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </QueryView>
    </>
  );
}
