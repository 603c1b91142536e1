import { supabase } from '@/lib/supabase'

/** One row of `rpc/dashboard_summary` (docs/database.md "Reads for the client"). */
export interface DashboardSummary {
  messages_sent: number
  messages_sent_change: number | null
  delivery_rate: number
  delivery_rate_change: number | null
  active_accounts: number
  active_accounts_change: number
  active_campaigns: number
  active_campaigns_change: number
}

/** A summary row as the database returns it (numerics may arrive as strings). */
export type DashboardSummaryRow = Record<keyof DashboardSummary, number | string | null>

export function toDashboardSummary(row: DashboardSummaryRow): DashboardSummary {
  const num = (v: number | string | null) => (v === null ? null : Number(v))
  return {
    messages_sent: Number(row.messages_sent ?? 0),
    messages_sent_change: num(row.messages_sent_change),
    delivery_rate: Number(row.delivery_rate ?? 0),
    delivery_rate_change: num(row.delivery_rate_change),
    active_accounts: Number(row.active_accounts ?? 0),
    active_accounts_change: Number(row.active_accounts_change ?? 0),
    active_campaigns: Number(row.active_campaigns ?? 0),
    active_campaigns_change: Number(row.active_campaigns_change ?? 0),
  }
}

export async function getDashboardSummary(): Promise<DashboardSummary> {
  const { data, error } = await supabase.rpc('dashboard_summary').single()
  if (error) throw new Error(`Could not load your figures: ${error.message}`)
  return toDashboardSummary(data as DashboardSummaryRow)
}
