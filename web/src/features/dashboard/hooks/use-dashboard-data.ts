import { useQuery } from '@tanstack/react-query'
import { LIVE_POLL_MS, queryRoots } from '@/lib/query-keys'
import { getDashboardSummary } from '../api/get-dashboard-summary'
import { getTabCounts } from '../api/get-tab-counts'
import { getTodaysOverview } from '../api/get-todays-overview'

/** The dashboard's query keys (the route seeds them from rpc/dashboard_snapshot on a cold load). */
export const dashboardKeys = {
  counts: [queryRoots.dashboard, 'counts'],
  summary: [queryRoots.dashboard, 'summary'],
  today: [queryRoots.dashboard, 'today'],
} as const

/** Tab badges; while a campaign or scrape runs they refresh every LIVE_POLL_MS (visible tab only). */
export function useTabCounts() {
  return useQuery({
    queryKey: dashboardKeys.counts,
    queryFn: getTabCounts,
    refetchInterval: (query) => ((query.state.data?.running ?? 0) > 0 ? LIVE_POLL_MS : false),
  })
}

export function useDashboardSummary(live: boolean) {
  return useQuery({
    queryKey: dashboardKeys.summary,
    queryFn: getDashboardSummary,
    refetchInterval: live ? LIVE_POLL_MS : false,
  })
}

export function useTodaysOverview(live: boolean) {
  return useQuery({
    queryKey: dashboardKeys.today,
    queryFn: getTodaysOverview,
    refetchInterval: live ? LIVE_POLL_MS : false,
  })
}
