import type { Tables } from '@reachflow/db'
import { type ProfileData, profileDataSchema } from '@/lib/database/leads'
import { parseJson } from '@/lib/database/parse-json'
import { supabase } from '@/lib/supabase'

export type ScrapedLead = Pick<
  Tables<'scraping_campaign_leads'>,
  'id' | 'username' | 'is_filtered' | 'filter_reason' | 'source_type' | 'source_value' | 'collected_at'
> & { profile_data: ProfileData }

export type ScrapedLeadFilter = 'all' | 'active' | 'filtered'

/** product.md §9: the scraping detail lists the latest 500 leads. */
export const SCRAPED_LEADS_LIMIT = 500

/** product.md §2 Modals 5, Scraped Leads: all, active only or filtered only. */
export async function getScrapedLeads(
  scrapingCampaignId: string,
  filter: ScrapedLeadFilter,
): Promise<ScrapedLead[]> {
  let query = supabase
    .from('scraping_campaign_leads')
    .select('id, username, profile_data, is_filtered, filter_reason, source_type, source_value, collected_at')
    .eq('scraping_campaign_id', scrapingCampaignId)
  if (filter !== 'all') query = query.eq('is_filtered', filter === 'filtered')
  const { data, error } = await query.order('collected_at', { ascending: false }).limit(SCRAPED_LEADS_LIMIT)
  if (error) throw new Error(`Could not load the scraped leads: ${error.message}`)
  return data.map((lead) => ({
    ...lead,
    profile_data: parseJson(profileDataSchema, lead.profile_data, `@${lead.username}'s profile`),
  }))
}
