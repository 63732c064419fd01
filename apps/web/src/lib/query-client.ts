import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

/** Server data lives here only. Errors are already shown by the request layer, so no retry storms on 4xx-like codes. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (count, err) => !(err instanceof ApiError) && count < 1,
    },
    mutations: { retry: false },
  },
});
