import { Link, useSearchParams } from 'react-router';
import { accountApi } from '../../api/account';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { TextField } from '../../components/Fields';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { fieldError, formValues, useApiMutation } from '../../lib/forms';

export default function ResetPasswordPage() {
  useDocumentTitle('Choose a new password');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const reset = useApiMutation({ mutationFn: accountApi.resetPassword });
  if (reset.isSuccess) {
    return (
      <>
        <h1>Password changed</h1>
        <p role="status">Your password was changed and every open session was signed out.</p>
        <p>
          <Link to="/login">Log in with the new password</Link>
        </p>
      </>
    );
  }
  if (!token) {
    return (
      <>
        <h1>Reset your password</h1>
        <p>This page needs the link from the reset email. Open the link from the email, or ask for a new one.</p>
        <p>
          <Link to="/forgot-password">Send me a reset link</Link>
        </p>
      </>
    );
  }
  return (
    <>
      <h1>Choose a new password</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void reset.submit({ token, password: formValues(e.currentTarget).password ?? '' });
        }}
        noValidate
      >
        <TextField label="New password" name="password" type="password" autoComplete="new-password" required minLength={8} hint="At least 8 characters." error={fieldError(reset.error, 'password')} />
        <ErrorMessage error={reset.error} fields={['password']} />
        <Button type="submit" variant="primary" pending={reset.isPending} pendingLabel="Saving…">
          Set the new password
        </Button>
      </form>
      <p className="auth-links">
        <Link to="/forgot-password">Send me a new link</Link>
      </p>
    </>
  );
}
