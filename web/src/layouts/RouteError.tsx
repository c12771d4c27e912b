import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

export function NotFoundPage() {
  return (
    <main className="centered-page">
      <h1>Page not found</h1>
      <p>There is nothing at this address. It may have moved, or the link is mistyped.</p>
      <p>
        <Link to="/">Go to your projects</Link>
      </p>
    </main>
  );
}

/** A page that failed to load or threw while rendering (a stale chunk after a deploy, a bug). */
export function RouteErrorPage() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  const message = error instanceof Error ? error.message : String(error);
  const staleChunk = /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(message);
  return (
    <main className="centered-page" role="alert">
      <h1>Something went wrong</h1>
      <p>{staleChunk ? 'Mailroom was updated since this page was opened. Reload to get the new version.' : message}</p>
      <p>
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
          Reload the page
        </button>
      </p>
    </main>
  );
}
