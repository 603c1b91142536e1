import { supabase } from '@/lib/supabase'

/** A social account as the tab shows it (spec §3 "Social account", its dashboard list view). */
export interface SocialAccount {
  id: string
  username: string
  status: string
  daily_message_limit: number
  requests_pending: number
  /** host:port only; the proxy's login is sealed with the credentials (issue 17). */
  proxy_url: string | null
  has_chat_passcode: boolean
  last_synced_at: string | null
  last_tested_at: string | null
  flag_reason: string | null
  paused_until: string | null
  warmup_phase: number
  trust_score: number
  created_at: string
  updated_at: string
  platform: { name: string; display_name: string } | null
}

/** The caller's accounts with their platform, newest first (spec §7 data service reads). */
export async function getAccounts(): Promise<SocialAccount[]> {
  const { data, error } = await supabase
    .from('social_accounts')
    .select(
      'id, username, status, daily_message_limit, requests_pending, proxy_url, has_chat_passcode, last_synced_at, last_tested_at, flag_reason, paused_until, warmup_phase, trust_score, created_at, updated_at, platform:platforms(name, display_name)',
    )
    .order('created_at', { ascending: false })
  if (error) throw new Error(`Could not load your accounts: ${error.message}`)
  return data as unknown as SocialAccount[]
}
