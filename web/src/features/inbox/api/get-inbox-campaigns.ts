import { supabase } from '@/lib/supabase'

/** The campaign filter's options: the caller's DM campaigns by name. */
export async function getInboxCampaigns(): Promise<{ id: string; name: string }[]> {
  const { data, error } = await supabase.from('campaigns').select('id, name').order('name')
  if (error) throw new Error(`Could not load your campaigns: ${error.message}`)
  return data
}
