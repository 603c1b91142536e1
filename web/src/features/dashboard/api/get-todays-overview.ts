import type { TodaysOverviewRow } from '@/lib/database/dashboard'
import { supabase } from '@/lib/supabase'

/** Sidebar "Today's Overview": sent and real replies today in the customer's time zone. */
export interface TodaysOverview {
  sentToday: number
  repliesToday: number
  timezone: string
}

/** From a todays_overview row (none for a customer without a profile). */
export function toTodaysOverview(
  row: Pick<TodaysOverviewRow, 'sent_today' | 'replies_today' | 'timezone'> | null,
): TodaysOverview {
  return {
    sentToday: Number(row?.sent_today ?? 0),
    repliesToday: Number(row?.replies_today ?? 0),
    timezone: row?.timezone ?? 'UTC',
  }
}

export async function getTodaysOverview(): Promise<TodaysOverview> {
  const { data, error } = await supabase.rpc('todays_overview').maybeSingle()
  if (error) throw new Error(`Could not load today's overview: ${error.message}`)
  return toTodaysOverview(data)
}
