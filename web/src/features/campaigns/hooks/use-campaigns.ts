import { useQuery } from '@tanstack/react-query'
import { LIVE_POLL_MS, queryRoots } from '@/lib/query-keys'
import { getCampaigns } from '../api/get-campaigns'
import { isSending } from '../campaign-status'

/** The campaign list; refreshes every LIVE_POLL_MS while one of them sends and the tab is visible. */
export function useCampaigns() {
  return useQuery({
    queryKey: [queryRoots.campaigns, 'list'],
    queryFn: getCampaigns,
    refetchInterval: (query) => (query.state.data?.some((c) => isSending(c.status)) ? LIVE_POLL_MS : false),
  })
}
