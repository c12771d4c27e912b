import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { accountApi, usePublicConfig } from '../../api/account';
import { ApiError } from '../../api/errors';
import { qk } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { TextField } from '../../components/Fields';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { fieldError, formValues, useApiMutation } from '../../lib/forms';
import { safeNext } from '../../lib/auth-redirect';

const FIELDS = ['email', 'password'] as const;

export default function SignupPage() {
  useDocumentTitle('Sign up');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const config = usePublicConfig();
  const signup = useApiMutation({
    mutationFn: accountApi.signup,
    onSuccess: (user) => {
      queryClient.setQueryData(qk.me, user);
      const next = safeNext(params.get('next'));
      navigate(next === '/' ? '/projects/new' : next, { replace: true });
    },
  });
  if (config.data && !config.data.signupEnabled) {
    return (
      <>
        <h1>Sign up</h1>
        <p>Sign-ups are turned off on this Mailroom. Ask its administrator for an account, or add you to a project.</p>
        <p>
          <Link to="/login">Log in</Link>
        </p>
      </>
    );
  }
  // 409: the address has an account already; say so at the email field.
  const emailTaken = signup.error instanceof ApiError && signup.error.status === 409 ? `${signup.error.message}. Log in instead, or reset the password.` : undefined;
  return (
    <>
      <h1>Create your account</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const v = formValues(e.currentTarget);
          void signup.submit({ email: v.email ?? '', password: v.password ?? '' });
        }}
        noValidate
      >
        <TextField label="Email" name="email" type="email" autoComplete="email" required error={emailTaken ?? fieldError(signup.error, 'email')} />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          hint="At least 8 characters."
          error={fieldError(signup.error, 'password')}
        />
        {!emailTaken && <ErrorMessage error={signup.error} fields={FIELDS} />}
        <Button type="submit" variant="primary" pending={signup.isPending} pendingLabel="Creating your account…">
          Sign up
        </Button>
      </form>
      <p className="auth-links">
        <span>
          Already have an account? <Link to="/login">Log in</Link>
        </span>
      </p>
    </>
  );
}
