import { useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { accountApi } from '../../api/account';
import { qk } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useApiMutation } from '../../lib/forms';

/**
 * Confirms the address with the emailed token. A button (not an automatic request) so a mail
 * scanner that opens the link cannot use up the single-use token.
 */
export default function VerifyEmailPage() {
  useDocumentTitle('Verify your email');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const queryClient = useQueryClient();
  const verify = useApiMutation({
    mutationFn: () => accountApi.verifyEmail(token),
    onSuccess: (user) => queryClient.setQueryData(qk.me, user),
  });
  if (verify.isSuccess) {
    return (
      <>
        <h1>Address confirmed</h1>
        <p role="status">{verify.data.email} is verified.</p>
        <p>
          <Link to="/">Open Mailroom</Link>
        </p>
      </>
    );
  }
  if (!token) {
    return (
      <>
        <h1>Verify your email</h1>
        <p>This page needs the link from the verification email. Signed in, you can have it sent again from the banner at the top of the dashboard.</p>
        <p>
          <Link to="/">Open Mailroom</Link>
        </p>
      </>
    );
  }
  return (
    <>
      <h1>Verify your email</h1>
      <p>Confirm that this address is yours.</p>
      <ErrorMessage error={verify.error} title="Could not verify" />
      <Button variant="primary" onClick={() => verify.submit()} pending={verify.isPending} pendingLabel="Verifying…">
        Verify my email address
      </Button>
    </>
  );
}
