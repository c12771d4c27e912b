import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { accountApi, useProjects } from '../../api/account';
import { qk } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { TextField } from '../../components/Fields';
import { KeyReveal } from '../../components/KeyReveal';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { fieldError, formValues, useApiMutation } from '../../lib/forms';
import { projectPath } from '../../lib/project';

export default function NewProjectPage() {
  useDocumentTitle('New project');
  const queryClient = useQueryClient();
  const projects = useProjects();
  const create = useApiMutation({
    mutationFn: (name: string) => accountApi.createProject(name),
    // The answer holds the keys: dropped from the cache as soon as this page is left.
    gcTime: 0,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: qk.projects }),
  });
  const created = create.data;
  return (
    <main className="auth-layout">
      <div className="auth-card auth-card-wide">
        {created ? (
          <>
            <h1>{created.name} is ready</h1>
            <KeyReveal keys={created} />
            <p>
              <Link className="btn btn-primary" to={projectPath(created.id)}>
                I have copied the keys: open the project
              </Link>
            </p>
          </>
        ) : (
          <>
            <h1>Create a project</h1>
            <p>A project holds its own contacts, templates, domains and API keys. Most teams use one per product or environment.</p>
            <form
              onSubmit={(e) => {
                e.preventDefault();
                void create.submit((formValues(e.currentTarget).name ?? '').trim());
              }}
              noValidate
            >
              <TextField label="Project name" name="name" required maxLength={100} placeholder="e.g. Acme production" error={fieldError(create.error, 'name')} />
              <ErrorMessage error={create.error} fields={['name']} />
              <Button type="submit" variant="primary" pending={create.isPending} pendingLabel="Creating…">
                Create project
              </Button>
            </form>
            {projects.data && projects.data.length > 0 && (
              <p className="auth-links">
                <Link to="/">Back to my projects</Link>
              </p>
            )}
          </>
        )}
      </div>
    </main>
  );
}
