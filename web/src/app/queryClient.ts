import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/errors';

/** Client errors (4xx) are answers, not glitches: never retried. Network and 5xx: twice. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      retry: (failures, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
      refetchOnWindowFocus: true,
    },
    mutations: { retry: false },
  },
});
