import type { Tables } from '@reachflow/db'
import { supabase } from '@/lib/supabase'

export type SenderAccount = Pick<
  Tables<'social_accounts'>,
  'id' | 'username' | 'status' | 'daily_message_limit' | 'connection'
> & {
  platform: Pick<Tables<'platforms'>, 'name' | 'display_name'> | null
}

export const NO_ACTIVE_ACCOUNTS =
  'No active accounts found. Please add and verify a social media account first.'

/**
 * The accounts a campaign can send from: the caller's active ones (product.md §7: the client keeps
 * status active), except official Instagram accounts, whose API only answers people who wrote first
 * (the database refuses them too).
 */
export async function getSenderAccounts(): Promise<SenderAccount[]> {
  const { data, error } = await supabase
    .from('social_accounts')
    .select('id, username, status, daily_message_limit, connection, platform:platforms(name, display_name)')
    .eq('status', 'active')
    .order('created_at', { ascending: false })
  if (error) throw new Error(`Could not load your accounts: ${error.message}`)
  return data.filter(
    (account) => !(account.connection === 'official' && account.platform?.name === 'instagram'),
  )
}
