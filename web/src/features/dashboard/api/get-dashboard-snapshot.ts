import { supabase } from '@/lib/supabase'
import { type DashboardSummary, type DashboardSummaryRow, toDashboardSummary } from './get-dashboard-summary'
import type { TabCounts } from './get-tab-counts'
import { type TodaysOverview, type TodaysOverviewRow, toTodaysOverview } from './get-todays-overview'

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
  /** The Campaigns tab's rows with their figures; the campaigns feature types them. */
  campaigns: unknown[]
}

interface SnapshotRow {
  user_id: string
  summary: DashboardSummaryRow
  today: TodaysOverviewRow
  counts: TabCounts
  campaigns: unknown[]
}

export async function getDashboardSnapshot(): Promise<DashboardSnapshot> {
  const { data, error } = await supabase.rpc('dashboard_snapshot')
  if (error) throw new Error(`Could not load your dashboard: ${error.message}`)
  const row = data as SnapshotRow
  return {
    userId: row.user_id,
    summary: toDashboardSummary(row.summary),
    today: toTodaysOverview(row.today),
    counts: {
      campaigns: Number(row.counts.campaigns),
      leads: Number(row.counts.leads),
      accounts: Number(row.counts.accounts),
      scraping: Number(row.counts.scraping),
      running: Number(row.counts.running),
    },
    campaigns: row.campaigns,
  }
}
