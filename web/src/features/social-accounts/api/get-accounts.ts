import type { Tables } from '@reachflow/db'
import { supabase } from '@/lib/supabase'

/**
 * A social account as the tab shows it (product.md §3 "Social account", its dashboard list view). proxy_url
 * is host:port only; the proxy's login is sealed with the credentials.
 */
export type SocialAccount = Pick<
  Tables<'social_accounts'>,
  | 'id'
  | 'username'
  | 'status'
  | 'daily_message_limit'
  | 'requests_pending'
  | 'proxy_url'
  | 'has_chat_passcode'
  | 'last_synced_at'
  | 'last_tested_at'
  | 'flag_reason'
  | 'paused_until'
  | 'warmup_phase'
  | 'trust_score'
  | 'created_at'
  | 'updated_at'
  | 'connection'
> & { platform: Pick<Tables<'platforms'>, 'name' | 'display_name'> | null }

/** The caller's accounts with their platform, newest first (product.md §7 data service reads). */
export async function getAccounts(): Promise<SocialAccount[]> {
  const { data, error } = await supabase
    .from('social_accounts')
    .select(
      'id, username, status, daily_message_limit, requests_pending, proxy_url, has_chat_passcode, last_synced_at, last_tested_at, flag_reason, paused_until, warmup_phase, trust_score, created_at, updated_at, connection, platform:platforms(name, display_name)',
    )
    .order('created_at', { ascending: false })
  if (error) throw new Error(`Could not load your accounts: ${error.message}`)
  return data
}
