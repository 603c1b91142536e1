import { useQuery } from '@tanstack/react-query'
import { LIVE_POLL_MS, queryRoots } from '@/lib/query-keys'
import { getCampaigns } from '../api/get-campaigns'
import { isSending } from '../campaign-status'

export const campaignListKey = [queryRoots.campaigns, 'list'] as const

/** The campaign list; refreshes every LIVE_POLL_MS while one of them sends and the tab is visible. */
export function useCampaigns() {
  return useQuery({
    queryKey: campaignListKey,
    queryFn: getCampaigns,
    refetchInterval: (query) => (query.state.data?.some((c) => isSending(c.status)) ? LIVE_POLL_MS : false),
  })
}
