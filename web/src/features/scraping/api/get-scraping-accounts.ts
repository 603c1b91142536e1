import type { Tables } from '@reachflow/db'
import { supabase } from '@/lib/supabase'

export type ScrapingAccount = Pick<Tables<'social_accounts'>, 'id' | 'username'> & {
  platform: Pick<Tables<'platforms'>, 'name' | 'display_name'> | null
}

/** Accounts that can scrape: the caller's active ones signed in through the browser (an official API cannot search). */
export async function getScrapingAccounts(): Promise<ScrapingAccount[]> {
  const { data, error } = await supabase
    .from('social_accounts')
    .select('id, username, platform:platforms(name, display_name)')
    .eq('status', 'active')
    .eq('connection', 'browser')
    .order('created_at', { ascending: false })
  if (error) throw new Error(`Could not load your accounts: ${error.message}`)
  return data
}
