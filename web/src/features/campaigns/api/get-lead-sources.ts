import { supabase } from '@/lib/supabase'

export interface LeadSource {
  id: string
  name: string
  leads_collected: number
  account_id: string | null
  platform: { name: string; display_name: string } | null
}

/** Spec §2 DM wizard step 2: only completed scraping campaigns with collected leads. */
export async function getLeadSources(): Promise<LeadSource[]> {
  const { data, error } = await supabase
    .from('scraping_campaigns')
    .select('id, name, leads_collected, account_id, platform:platforms(name, display_name)')
    .eq('status', 'completed')
    .gt('leads_collected', 0)
    .order('completed_at', { ascending: false })
  if (error) throw new Error(`Could not load your scraping campaigns: ${error.message}`)
  return data as unknown as LeadSource[]
}
