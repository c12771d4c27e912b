/** Pages that work signed out; a 401 there is not a reason to go to the login page. */
export const PUBLIC_PATHS = new Set(['/login', '/signup', '/forgot-password', '/reset-password', '/verify-email']);

/** `/login?next=<where the user was>` (paths inside the app, without the /app base). */
export function loginPath(from: string): string {
  return from && from !== '/' ? `/login?next=${encodeURIComponent(from)}` : '/login';
}

/**
 * Where to go after logging in: the `next` parameter when it is a path inside the app (never
 * another origin, `//host` or a scheme), else the home page.
 */
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  if (PUBLIC_PATHS.has(next.split('?')[0])) return '/';
  return next;
}
