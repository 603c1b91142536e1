import { type CampaignStats, campaignStatsSchema } from '@/lib/database/campaign-stats'
import { parseJson } from '@/lib/database/parse-json'
import { supabase } from '@/lib/supabase'
import { CAMPAIGN_COLUMNS, getCampaignFigures, withFigures } from './get-campaigns'
import type { Campaign } from './types'

export type { CampaignStats }

export const CAMPAIGN_NOT_FOUND = 'Campaign not found'

/** One campaign with its statistics; 'Campaign not found' when it is not the caller's (product.md §8). */
export async function getCampaignDetails(id: string): Promise<{ campaign: Campaign; stats: CampaignStats }> {
  const [row, stats, figures] = await Promise.all([
    supabase.from('campaigns').select(CAMPAIGN_COLUMNS).eq('id', id).maybeSingle(),
    supabase.rpc('campaign_stats', { p_campaign_id: id, p_days: 30 }),
    getCampaignFigures(id),
  ])
  if (row.error) throw new Error(row.error.message)
  if (!row.data || stats.error) throw new Error(CAMPAIGN_NOT_FOUND)
  return {
    campaign: withFigures(row.data, figures),
    stats: parseJson(campaignStatsSchema, stats.data, "The campaign's statistics"),
  }
}
