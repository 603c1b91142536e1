import { useQuery } from '@tanstack/react-query'
import { LIVE_POLL_MS, queryRoots } from '@/lib/query-keys'
import { getCampaignWaits } from '../api/get-campaign-waits'

/** Which campaigns wait on a used-up daily cap; followed while a campaign sends (`live`). */
export function useCampaignWaits(live: boolean) {
  return useQuery({
    queryKey: [queryRoots.campaigns, 'waits'],
    queryFn: getCampaignWaits,
    refetchInterval: live ? LIVE_POLL_MS : false,
  })
}
