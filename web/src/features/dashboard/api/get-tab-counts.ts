import { supabase } from '@/lib/supabase'

/** The count badges of the four tabs, plus whether anything runs (which turns live polling on). */
export interface TabCounts {
  campaigns: number
  leads: number
  accounts: number
  scraping: number
  running: number
}

/** Five HEAD requests with count=exact: no rows travel, whatever the customer has. */
export async function getTabCounts(): Promise<TabCounts> {
  const head = { count: 'exact', head: true } as const
  const [campaigns, leads, accounts, scraping, runningCampaigns, runningScrapes] = await Promise.all([
    supabase.from('campaigns').select('id', head),
    supabase.from('lead_view').select('id', head),
    supabase.from('social_accounts').select('id', head),
    supabase.from('scraping_campaigns').select('id', head),
    supabase.from('campaigns').select('id', head).in('status', ['queued', 'running', 'active']),
    supabase.from('scraping_campaigns').select('id', head).eq('status', 'running'),
  ])
  const failed = [campaigns, leads, accounts, scraping, runningCampaigns, runningScrapes].find((r) => r.error)
  if (failed?.error) throw new Error(`Could not count your records: ${failed.error.message}`)
  return {
    campaigns: campaigns.count ?? 0,
    leads: leads.count ?? 0,
    accounts: accounts.count ?? 0,
    scraping: scraping.count ?? 0,
    running: (runningCampaigns.count ?? 0) + (runningScrapes.count ?? 0),
  }
}
