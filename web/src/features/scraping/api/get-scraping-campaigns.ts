import { parseJson } from '@/lib/database/parse-json'
import { filtersSchema, type ScrapingCampaign, sourcesSchema } from '@/lib/database/scraping'
import { supabase } from '@/lib/supabase'

export const SCRAPING_COLUMNS = `id, name, status, account_id, sources, target_count, filters, collected_count, leads_collected,
  error_message, started_at, completed_at, last_run_at, next_run_at, created_at, updated_at,
  account:social_accounts(id, username, status), ai_ideal_customer, ai_min_score, ai_kept, ai_skipped, ai_unscored,
  platform:platforms(name, display_name), lead_list:lead_lists!scraping_campaigns_lead_list_id_fkey(id, name, lead_count)`

/** A scraping_campaigns row with its jsonb sources and filters read as the database keeps them. */
export function toScrapingCampaign(
  row: Omit<ScrapingCampaign, 'sources' | 'filters'> & { sources: unknown; filters: unknown },
): ScrapingCampaign {
  return {
    ...row,
    sources: parseJson(sourcesSchema, row.sources, `Scraping campaign ${row.name}'s sources`),
    filters: parseJson(filtersSchema, row.filters, `Scraping campaign ${row.name}'s filters`),
  }
}

/** The caller's scraping campaigns with account, platform and lead list, newest first. */
export async function getScrapingCampaigns(): Promise<ScrapingCampaign[]> {
  const { data, error } = await supabase
    .from('scraping_campaigns')
    .select(SCRAPING_COLUMNS)
    .order('created_at', { ascending: false })
  if (error) throw new Error(`Could not load your scraping campaigns: ${error.message}`)
  return data.map(toScrapingCampaign)
}
