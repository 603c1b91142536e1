import type { RpcResult } from '@reachflow/db'
import { parseJson } from '@/lib/database/parse-json'
import { type ScrapingStats, scrapingStatsSchema } from '@/lib/database/scraping-stats'
import { supabase } from '@/lib/supabase'
import { SCRAPING_COLUMNS, toScrapingCampaign } from './get-scraping-campaigns'
import type { ScrapingCampaign } from './types'

/** rpc/scraping_campaign_stats (docs/database.md). */
export type { ScrapingStats }
export type HourlyCollection = RpcResult<'scraping_collection_per_hour'>[number]

/** One scraping campaign with its statistics and the last 48 hours of collection; 'Campaign not found' otherwise. */
export async function getScrapingDetails(
  id: string,
): Promise<{ campaign: ScrapingCampaign; stats: ScrapingStats; perHour: HourlyCollection[] }> {
  const [row, stats, perHour] = await Promise.all([
    supabase.from('scraping_campaigns').select(SCRAPING_COLUMNS).eq('id', id).maybeSingle(),
    supabase.rpc('scraping_campaign_stats', { p_scraping_campaign_id: id }),
    supabase.rpc('scraping_collection_per_hour', { p_scraping_campaign_id: id, p_hours: 48 }),
  ])
  if (row.error) throw new Error(row.error.message)
  if (!row.data || stats.error) throw new Error('Campaign not found')
  return {
    campaign: toScrapingCampaign(row.data),
    stats: parseJson(scrapingStatsSchema, stats.data, "The scraping campaign's statistics"),
    perHour: perHour.data ?? [],
  }
}
