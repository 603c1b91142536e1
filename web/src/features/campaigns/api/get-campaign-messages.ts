import { supabase } from '@/lib/supabase'

/** Spec §3 "Message log". */
export interface MessageLog {
  id: string
  status: string
  target_username: string
  message_sent: string | null
  message_type: string
  step: number
  error: string | null
  sent_at: string
  /** Issue 21: the opening variant's slot when it was sent, and which kind of text it used (null: before variants were recorded). */
  variant_index: number | null
  variant: { kind: 'opening' | 'no_name' | 'follow_up' } | null
  /** personalized: the AI's text was sent; fallback: the template, personalization_note says why; null: off. */
  personalization: 'personalized' | 'fallback' | null
  personalization_note: string | null
}

/** Spec §9: the latest 100 messages of a DM campaign. */
export const CAMPAIGN_MESSAGES_LIMIT = 100

export async function getCampaignMessages(campaignId: string): Promise<MessageLog[]> {
  const { data, error } = await supabase
    .from('dm_logs')
    .select(
      'id, status, target_username, message_sent, message_type, step, error, sent_at, variant_index, variant:message_variants(kind), personalization, personalization_note',
    )
    .eq('campaign_id', campaignId)
    .order('sent_at', { ascending: false })
    .limit(CAMPAIGN_MESSAGES_LIMIT)
  if (error) throw new Error(`Could not load the campaign's messages: ${error.message}`)
  return data as unknown as MessageLog[]
}
