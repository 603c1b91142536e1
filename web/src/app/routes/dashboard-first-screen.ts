// The dashboard's first screen comes from one read, rpc/dashboard_snapshot, started as soon as the
// dashboard's code loads: in parallel with the signed-in guard's profile read rather than after it,
// and one request instead of ten (the browser sends six at a time). Its parts seed the queries the
// shell and the Campaigns tab read, which keep their own reads for refreshes and polling.
import type { QueryClient, QueryKey } from '@tanstack/react-query'
import { env } from '@/config/env'
import { getCampaigns } from '@/features/campaigns/api/get-campaigns'
import { campaignListKey } from '@/features/campaigns/hooks/use-campaigns'
import { type DashboardSnapshot, getDashboardSnapshot } from '@/features/dashboard/api/get-dashboard-snapshot'
import { getDashboardSummary } from '@/features/dashboard/api/get-dashboard-summary'
import { getTabCounts } from '@/features/dashboard/api/get-tab-counts'
import { getTodaysOverview } from '@/features/dashboard/api/get-todays-overview'
import { dashboardKeys } from '@/features/dashboard/hooks/use-dashboard-data'
import { authStorageKey, mayHaveSession } from '@/lib/auth-store'

/** An early read older than this is not used: the page reads afresh. */
const EARLY_MAX_AGE_MS = 10_000

const readSnapshot = (): Promise<DashboardSnapshot | null> =>
  getDashboardSnapshot().catch((error: unknown) => {
    // The separate reads run instead and show their own errors.
    console.error('Dashboard snapshot failed', error)
    return null
  })

let early: { startedAt: number; snapshot: Promise<DashboardSnapshot | null> } | null = null

/** Called when the dashboard's code loads: starts the read if a session may exist. */
export function startEarlySnapshot(): void {
  if (!mayHaveSession(authStorageKey(env.supabaseUrl), window.location)) return
  early = { startedAt: Date.now(), snapshot: readSnapshot() }
}

/** The early read once, if still fresh; later mounts of the dashboard read afresh. */
function takeSnapshot(): Promise<DashboardSnapshot | null> {
  const taken = early
  early = null
  if (taken && Date.now() - taken.startedAt < EARLY_MAX_AGE_MS) return taken.snapshot
  return readSnapshot()
}

/**
 * Seeds the first screen's queries from one snapshot read. A query falls back to its own read when
 * the snapshot failed or belongs to another user (a sign-in as someone else since it started).
 * The hooks that mount meanwhile join these fetches instead of starting their own.
 */
export function seedFirstScreen(client: QueryClient, userId: string | undefined): void {
  const snapshot = takeSnapshot()
  const seed = <T>(queryKey: QueryKey, pick: (s: DashboardSnapshot) => T, read: () => Promise<T>) =>
    void client.prefetchQuery({
      queryKey,
      queryFn: async () => {
        const s = await snapshot
        return s && s.userId === userId ? pick(s) : read()
      },
    })
  seed(dashboardKeys.counts, (s) => s.counts, getTabCounts)
  seed(dashboardKeys.summary, (s) => s.summary, getDashboardSummary)
  seed(dashboardKeys.today, (s) => s.today, getTodaysOverview)
  seed(campaignListKey, (s) => s.campaigns, getCampaigns)
}
