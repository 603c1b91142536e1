import { supabase } from '@/lib/supabase'
import { CAMPAIGN_COLUMNS, getCardFigures, withFigures } from './get-campaigns'
import type { Campaign } from './types'

/** rpc/campaign_stats (docs/database.md). */
export interface CampaignStats {
  totalLeads: number
  leads: {
    total: number
    pending: number
    contacted: number
    skipped: number
    failed: number
    uncertain: number
    replied: number
  }
  messagesSent: number
  /** Messages whose log says not delivered now. */
  messagesFailed: number
  /** Sent but not confirmed yet: neither delivered nor failed until the runner checks. */
  messagesUncertain: number
  totalAttempts: number
  /** People the campaign will message or has messaged (its leads not skipped). */
  target: number
  responses: number
  replyRate: number
  deliveryRate: number
  progress: number
  sentToday: number
  daysOff: string[]
  perDay: { date: string; sent: number; failed: number; uncertain: number; replies: number }[]
}

export const CAMPAIGN_NOT_FOUND = 'Campaign not found'

/** One campaign with its statistics; 'Campaign not found' when it is not the caller's (spec §8). */
export async function getCampaignDetails(id: string): Promise<{ campaign: Campaign; stats: CampaignStats }> {
  const [row, stats, figures] = await Promise.all([
    supabase.from('campaigns').select(CAMPAIGN_COLUMNS).eq('id', id).maybeSingle(),
    supabase.rpc('campaign_stats', { p_campaign_id: id, p_days: 30 }),
    getCardFigures(),
  ])
  if (row.error) throw new Error(row.error.message)
  if (!row.data || stats.error) throw new Error(CAMPAIGN_NOT_FOUND)
  return {
    campaign: withFigures(row.data as unknown as Omit<Campaign, 'leads' | 'contacted' | 'replied'>, figures),
    stats: stats.data as CampaignStats,
  }
}
