import { Link } from 'react-router';
import { accountApi } from '../../api/account';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { TextField } from '../../components/Fields';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { fieldError, formValues, useApiMutation } from '../../lib/forms';

export default function ForgotPasswordPage() {
  useDocumentTitle('Reset your password');
  const request = useApiMutation({ mutationFn: accountApi.requestPasswordReset });
  if (request.isSuccess) {
    return (
      <>
        <h1>Check your inbox</h1>
        <p role="status">If an account uses {request.variables}, an email with a link to choose a new password is on its way. The link works for one hour.</p>
        <p>
          <Link to="/login">Back to log in</Link>
        </p>
      </>
    );
  }
  return (
    <>
      <h1>Reset your password</h1>
      <p>Enter the address you signed up with; we will email you a link to choose a new password.</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void request.submit(formValues(e.currentTarget).email ?? '');
        }}
        noValidate
      >
        <TextField label="Email" name="email" type="email" autoComplete="email" required error={fieldError(request.error, 'email')} />
        <ErrorMessage error={request.error} fields={['email']} />
        <Button type="submit" variant="primary" pending={request.isPending} pendingLabel="Sending…">
          Send the reset link
        </Button>
      </form>
      <p className="auth-links">
        <Link to="/login">Back to log in</Link>
      </p>
    </>
  );
}
