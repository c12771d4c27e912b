import { Navigate, Outlet, useLocation } from 'react-router';
import { useMe } from '../api/account';
import { ApiError } from '../api/errors';
import { ErrorMessage } from '../components/ErrorMessage';
import { Loading } from '../components/Feedback';
import { loginPath } from '../lib/auth-redirect';

/** Pages behind the session: the signed-in user must be known first. */
export function RequireAuth() {
  const me = useMe();
  const location = useLocation();
  if (me.isPending) return <Loading label="Signing you in…" />;
  if (me.isError) {
    if (me.error instanceof ApiError && me.error.status === 401) return <Navigate to={loginPath(location.pathname + location.search)} replace />;
    return (
      <main className="auth-layout">
        <ErrorMessage error={me.error} title="Could not reach Mailroom" />
      </main>
    );
  }
  return <Outlet />;
}
