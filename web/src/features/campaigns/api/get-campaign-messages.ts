import type { Tables } from '@reachflow/db'
import { supabase } from '@/lib/supabase'

/** product.md §3 "Message log", with the variant's kind (null: before variants were recorded). */
export type MessageLog = Pick<
  Tables<'dm_logs'>,
  | 'id'
  | 'status'
  | 'target_username'
  | 'message_sent'
  | 'message_type'
  | 'step'
  | 'error'
  | 'sent_at'
  | 'variant_index'
  | 'personalization'
  | 'personalization_note'
> & { variant: Pick<Tables<'message_variants'>, 'kind'> | null }

/** product.md §9: the latest 100 messages of a DM campaign. */
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
  return data
}
