import type { Tables } from '@reachflow/db'
import { type ProfileData, profileDataSchema } from '@/lib/database/leads'
import { parseJson } from '@/lib/database/parse-json'
import { supabase } from '@/lib/supabase'

export type CampaignLead = Pick<
  Tables<'campaign_leads'>,
  | 'id'
  | 'username'
  | 'state'
  | 'skip_reason'
  | 'current_step'
  | 'last_sent_at'
  | 'next_send_at'
  | 'replied_at'
  | 'reply_text'
  | 'last_error'
  | 'collected_at'
> & { profile_data: ProfileData }

/** product.md §9: the detail view lists the latest 100 leads of a DM campaign. */
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
  return data.map((lead) => ({
    ...lead,
    profile_data: parseJson(profileDataSchema, lead.profile_data, `@${lead.username}'s profile`),
  }))
}
