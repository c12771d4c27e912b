import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { setUnauthorizedHandler } from './api/client';
import { queryClient } from './app/queryClient';
import { router } from './app/router';
import { loginPath, PUBLIC_PATHS } from './lib/auth-redirect';
import './styles.css';

// A session that expired (or was never there) sends the user to log in, and back afterwards.
setUnauthorizedHandler(() => {
  // The browser's own location: the router's may still be the previous page mid-navigation.
  const pathname = window.location.pathname.replace(/^\/app(?=\/|$)/, '') || '/';
  const search = window.location.search;
  if (PUBLIC_PATHS.has(pathname)) return;
  void router.navigate(loginPath(pathname + search), { replace: true }).then(() => queryClient.removeQueries());
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
