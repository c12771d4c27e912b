import { Outlet } from 'react-router';

/** Signed-out pages: a centred card. Kept tiny: it is part of the login page's first load. */
export function AuthLayout() {
  return (
    <main className="auth-layout">
      <div className="auth-card">
        <p className="brand" aria-hidden="true">
          Mailroom
        </p>
        <Outlet />
      </div>
    </main>
  );
}
