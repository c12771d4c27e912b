import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { accountApi } from '../../api/account';
import { qk } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { TextField } from '../../components/Fields';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { fieldError, formValues, useApiMutation } from '../../lib/forms';
import { safeNext } from '../../lib/auth-redirect';

const FIELDS = ['email', 'password'] as const;

export default function LoginPage() {
  useDocumentTitle('Log in');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const next = params.get('next');
  const login = useApiMutation({
    mutationFn: accountApi.login,
    onSuccess: (user) => {
      queryClient.setQueryData(qk.me, user);
      navigate(safeNext(next), { replace: true });
    },
  });
  return (
    <>
      <h1>Log in</h1>
      {next && <p className="notice">Log in to continue where you were.</p>}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const v = formValues(e.currentTarget);
          void login.submit({ email: v.email ?? '', password: v.password ?? '' });
        }}
        noValidate
      >
        <TextField label="Email" name="email" type="email" autoComplete="email" required error={fieldError(login.error, 'email')} />
        <TextField label="Password" name="password" type="password" autoComplete="current-password" required error={fieldError(login.error, 'password')} />
        <ErrorMessage error={login.error} fields={FIELDS} />
        <Button type="submit" variant="primary" pending={login.isPending} pendingLabel="Logging in…">
          Log in
        </Button>
      </form>
      <p className="auth-links">
        <Link to="/forgot-password">Forgot your password?</Link>
        <span>
          No account yet? <Link to={next ? `/signup?next=${encodeURIComponent(next)}` : '/signup'}>Sign up</Link>
        </span>
      </p>
    </>
  );
}
