import { QueryClient } from '@tanstack/react-query'

/**
 * The signed-in pages' data cache. Reads are cheap and RLS-scoped; refetch when the window regains
 * focus, retry once, and never poll a hidden tab (refetchIntervalInBackground stays false).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 5_000, retry: 1, refetchOnWindowFocus: true, refetchIntervalInBackground: false },
      mutations: { retry: 0 },
    },
  })
}
