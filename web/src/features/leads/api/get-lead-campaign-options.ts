import { supabase } from '@/lib/supabase'

export interface CampaignOption {
  id: string
  name: string
  kind: 'campaign' | 'scraping'
}

/** The 'All Campaigns' dropdown: the caller's DM and scraping campaigns by name. */
export async function getLeadCampaignOptions(): Promise<CampaignOption[]> {
  const [dm, scraping] = await Promise.all([
    supabase.from('campaigns').select('id, name').order('name'),
    supabase.from('scraping_campaigns').select('id, name').order('name'),
  ])
  if (dm.error || scraping.error) throw new Error('Could not load your campaigns')
  return [
    ...dm.data.map((c) => ({ ...c, kind: 'campaign' as const })),
    ...scraping.data.map((c) => ({ ...c, kind: 'scraping' as const })),
  ]
}
