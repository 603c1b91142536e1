import type { Tables } from '@reachflow/db'
import { supabase } from '@/lib/supabase'

export type LeadSource = Pick<
  Tables<'scraping_campaigns'>,
  'id' | 'name' | 'leads_collected' | 'account_id'
> & {
  platform: Pick<Tables<'platforms'>, 'name' | 'display_name'> | null
}

/** product.md §2 DM wizard step 2: only completed scraping campaigns with collected leads. */
export async function getLeadSources(): Promise<LeadSource[]> {
  const { data, error } = await supabase
    .from('scraping_campaigns')
    .select('id, name, leads_collected, account_id, platform:platforms(name, display_name)')
    .eq('status', 'completed')
    .gt('leads_collected', 0)
    .order('completed_at', { ascending: false })
  if (error) throw new Error(`Could not load your scraping campaigns: ${error.message}`)
  return data
}
