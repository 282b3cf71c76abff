import { QueryClient } from '@tanstack/react-query';

/**
 * The app's one query cache. Its own module, light, because the boot's preload (preload.ts)
 * fills it before the app's code has arrived.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    // The client already times out after 10 s (spec §9); a failed call is shown, not retried.
    queries: { retry: false, refetchOnWindowFocus: false },
  },
});
