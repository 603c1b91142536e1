import { supabase } from '@/lib/supabase'

export interface CampaignLead {
  id: string
  username: string
  profile_data: Record<string, unknown>
  state: string
  skip_reason: string | null
  current_step: number
  last_sent_at: string | null
  next_send_at: string | null
  replied_at: string | null
  reply_text: string | null
  last_error: string | null
  collected_at: string
}

/** Spec §9: the detail view lists the latest 100 leads of a DM campaign. */
export const CAMPAIGN_LEADS_LIMIT = 100

export async function getCampaignLeads(campaignId: string): Promise<CampaignLead[]> {
  const { data, error } = await supabase
    .from('campaign_leads')
    .select(
      'id, username, profile_data, state, skip_reason, current_step, last_sent_at, next_send_at, replied_at, reply_text, last_error, collected_at',
    )
    .eq('campaign_id', campaignId)
    .order('collected_at', { ascending: false })
    .limit(CAMPAIGN_LEADS_LIMIT)
  if (error) throw new Error(`Could not load the campaign's leads: ${error.message}`)
  return data as CampaignLead[]
}
