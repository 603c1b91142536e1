import type { Campaign } from '@/lib/database/campaigns'
import { dashboardSnapshotSchema, type TabCounts } from '@/lib/database/dashboard'
import { parseJson } from '@/lib/database/parse-json'
import { supabase } from '@/lib/supabase'
import type { DashboardSummary } from './get-dashboard-summary'
import { type TodaysOverview, toTodaysOverview } from './get-todays-overview'

/**
 * The dashboard's first screen in one read (`rpc/dashboard_snapshot`): the stat cards, today's
 * overview, the tab badges and the campaign list. The separate reads stay for refreshes and polling.
 */
export interface DashboardSnapshot {
  /** Whose figures these are: the page only uses them for the user it shows. */
  userId: string
  summary: DashboardSummary
  today: TodaysOverview
  counts: TabCounts
  /** The Campaigns tab's rows with their figures. */
  campaigns: Campaign[]
}

export async function getDashboardSnapshot(): Promise<DashboardSnapshot> {
  const { data, error } = await supabase.rpc('dashboard_snapshot')
  if (error) throw new Error(`Could not load your dashboard: ${error.message}`)
  const row = parseJson(dashboardSnapshotSchema, data, 'Your dashboard')
  return {
    userId: row.user_id,
    summary: row.summary,
    today: toTodaysOverview(row.today),
    counts: row.counts,
    campaigns: row.campaigns,
  }
}
