import type { DashboardSummaryRow } from '@/lib/database/dashboard'
import { supabase } from '@/lib/supabase'

/** One row of `rpc/dashboard_summary` (docs/database.md "Reads for the client"). */
export type DashboardSummary = DashboardSummaryRow

export async function getDashboardSummary(): Promise<DashboardSummary> {
  const { data, error } = await supabase.rpc('dashboard_summary').single()
  if (error) throw new Error(`Could not load your figures: ${error.message}`)
  return data
}
