import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { AuthLayout } from '../layouts/AuthLayout';
import { RequireAuth } from '../layouts/RequireAuth';
import { Loading } from '../components/Feedback';
import { NotFoundPage, RouteErrorPage } from '../layouts/RouteError';

/** Route `lazy` for a page module whose default export is the page: one chunk per page. */
const page = (load: () => Promise<{ default: ComponentType }>) => async () => ({ Component: (await load()).default });

/**
 * Sections owned by one folder each (`pages/<section>/index.tsx`, default export): mounted at
 * `/p/:projectId/<section>/*`, they declare their own sub-routes with <Routes> inside.
 */
const section = (path: string, load: () => Promise<{ default: ComponentType }>): RouteObject => ({ path: `${path}/*`, lazy: page(load) });

export const routes: RouteObject[] = [
  {
    errorElement: <RouteErrorPage />,
    // Shown while the first page's code loads (every page is its own chunk).
    HydrateFallback: () => <Loading />,
    children: [
      {
        Component: AuthLayout,
        children: [
          { path: 'login', lazy: page(() => import('../pages/auth/LoginPage')) },
          { path: 'signup', lazy: page(() => import('../pages/auth/SignupPage')) },
          { path: 'forgot-password', lazy: page(() => import('../pages/auth/ForgotPasswordPage')) },
          { path: 'reset-password', lazy: page(() => import('../pages/auth/ResetPasswordPage')) },
          { path: 'verify-email', lazy: page(() => import('../pages/auth/VerifyEmailPage')) },
        ],
      },
      {
        Component: RequireAuth,
        children: [
          { index: true, lazy: page(() => import('../pages/projects/HomePage')) },
          { path: 'projects/new', lazy: page(() => import('../pages/projects/NewProjectPage')) },
          { path: 'account', lazy: page(() => import('../pages/account/AccountPage')) },
          {
            path: 'p/:projectId',
            lazy: page(() => import('../layouts/AppLayout')),
            children: [
              { index: true, lazy: page(() => import('../pages/overview/OverviewPage')) },
              section('contacts', () => import('../pages/contacts')),
              section('templates', () => import('../pages/templates')),
              section('domains', () => import('../pages/domains')),
              section('settings', () => import('../pages/settings')),
              section('segments', () => import('../pages/segments')),
              section('topics', () => import('../pages/topics')),
              section('campaigns', () => import('../pages/campaigns')),
              section('workflows', () => import('../pages/workflows')),
              section('activity', () => import('../pages/activity')),
              section('analytics', () => import('../pages/analytics')),
              section('billing', () => import('../pages/billing')),
              section('webhooks', () => import('../pages/webhooks')),
              { path: '*', Component: NotFoundPage },
            ],
          },
        ],
      },
      { path: '*', Component: NotFoundPage },
    ],
  },
];

export const router = createBrowserRouter(routes, { basename: '/app' });
