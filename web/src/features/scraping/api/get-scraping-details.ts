import { supabase } from '@/lib/supabase'
import { SCRAPING_COLUMNS } from './get-scraping-campaigns'
import type { ScrapingCampaign } from './types'

/** rpc/scraping_campaign_stats (docs/database.md). */
export interface ScrapingStats {
  targetCount: number
  collected: number
  valid: number
  filtered: number
  successRate: number
  collectionRate: number
  qualityScore: number
  averagePerHour: number
  firstCollectedAt: string | null
  lastCollectedAt: string | null
  sources: { type: string; value: string; count: number; percentage: number }[]
  perDay: { date: string; collected: number; valid: number }[]
  recent: {
    id: string
    username: string
    sourceType: string
    sourceValue: string
    isFiltered: boolean
    filterReason: string | null
    collectedAt: string
  }[]
}

export interface HourlyCollection {
  hour: string
  collected: number
  valid: number
}

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
    campaign: row.data as unknown as ScrapingCampaign,
    stats: stats.data as ScrapingStats,
    perHour: ((perHour.data ?? []) as HourlyCollection[]).map((h) => ({
      ...h,
      collected: Number(h.collected),
      valid: Number(h.valid),
    })),
  }
}
