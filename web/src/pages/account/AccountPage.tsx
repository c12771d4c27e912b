import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { accountApi, useMe, useProjects } from '../../api/account';
import type { Project } from '../../api/types';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { TextField } from '../../components/Fields';
import { QueryView } from '../../components/QueryView';
import { fieldError, formValues, useApiMutation } from '../../lib/forms';
import { useDocumentTitle } from '../../lib/useDocumentTitle';

/** Deleting the account, confirmed with the password; it says first what goes with it. */
export function DeleteAccount({ projects }: { projects: Project[] }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const remove = useApiMutation({
    mutationFn: (password: string) => accountApi.deleteAccount(password),
    onSuccess: () => {
      queryClient.clear();
      navigate('/login', { replace: true });
    },
  });
  const owned = projects.filter((p) => p.role === 'OWNER');
  const joined = projects.filter((p) => p.role !== 'OWNER');
  return (
    <section className="panel" aria-labelledby="delete-account">
      <h2 id="delete-account">Delete your account</h2>
      <p>This cannot be undone. With your account go:</p>
      <ul>
        {owned.length > 0 ? (
          <li>
            the {owned.length === 1 ? 'project' : 'projects'} you own, with all their contacts, templates, campaigns, domains, webhooks and API keys:{' '}
            {owned.map((p) => p.name).join(', ')}
          </li>
        ) : (
          <li>no project: you own none</li>
        )}
        {joined.length > 0 && <li>your membership of {joined.map((p) => p.name).join(', ')} (those projects stay)</li>}
        <li>every session: you are signed out everywhere</li>
      </ul>
      <p>A project you own that has other members must lose them first (or be deleted), so that nobody loses a project they work in.</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void remove.submit(formValues(e.currentTarget).password ?? '');
        }}
        noValidate
      >
        <TextField label="Your password" name="password" type="password" autoComplete="current-password" required error={fieldError(remove.error, 'password')} />
        <ErrorMessage error={remove.error} fields={['password']} title="Your account was not deleted" />
        <Button type="submit" variant="danger" pending={remove.isPending} pendingLabel="Deleting…">
          Delete my account
        </Button>
      </form>
    </section>
  );
}

export default function AccountPage() {
  useDocumentTitle('Your account');
  const me = useMe();
  const projects = useProjects();
  return (
    <main className="centered-page">
      <h1>Your account</h1>
      {me.data && <p>Signed in as {me.data.email}.</p>}
      <QueryView query={projects} title="Could not load your projects">
        {(list) => <DeleteAccount projects={list} />}
      </QueryView>
      <p>
        <Link to="/">Back to your projects</Link>
      </p>
    </main>
  );
}
