import { supabase } from '@/lib/supabase'
import type { VariantRow } from '../variant-results'

/** rpc/campaign_variant_stats: sent, replies and reply rate per message variant. */
export async function getVariantStats(campaignId: string): Promise<VariantRow[]> {
  const { data, error } = await supabase.rpc('campaign_variant_stats', { p_campaign_id: campaignId })
  if (error) throw new Error(`Could not load the results per message: ${error.message}`)
  return data
}
