import { supabase } from '@/lib/supabase'
import type { Schedule } from './types'

/** The random days off a campaign with this id and schedule takes in the next `days` days. */
export async function previewDaysOff(campaignId: string, schedule: Schedule, days = 28): Promise<string[]> {
  const { data, error } = await supabase.rpc('preview_campaign_days_off', {
    p_campaign_id: campaignId,
    p_schedule: { ...schedule },
    p_days: days,
  })
  if (error) throw new Error(`Could not preview the days off: ${error.message}`)
  return data
}
