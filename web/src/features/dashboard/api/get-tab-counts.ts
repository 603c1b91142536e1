import { supabase } from '@/lib/supabase'

/** The count badges of the four tabs, plus whether anything runs (which turns live polling on). */
export interface TabCounts {
  campaigns: number
  leads: number
  accounts: number
  scraping: number
  running: number
}

/**
 * One call, rpc/dashboard_counts (issue 18 item 10): the badges used to be six HEAD requests per
 * refresh. Leads counts people, as the Leads tab lists them.
 */
export async function getTabCounts(): Promise<TabCounts> {
  const { data, error } = await supabase.rpc('dashboard_counts')
  if (error) throw new Error(`Could not count your records: ${error.message}`)
  const counts = (data ?? {}) as Partial<TabCounts>
  return {
    campaigns: Number(counts.campaigns ?? 0),
    leads: Number(counts.leads ?? 0),
    accounts: Number(counts.accounts ?? 0),
    scraping: Number(counts.scraping ?? 0),
    running: Number(counts.running ?? 0),
  }
}
