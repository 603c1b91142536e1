import { supabase } from '@/lib/supabase'
import type { Automation, OfficialAccount } from './types'

/** The customer's Instagram accounts connected through Instagram's API (RLS: their own). */
export async function getOfficialAccounts(): Promise<OfficialAccount[]> {
  const { data, error } = await supabase
    .from('social_accounts')
    .select('id, username, status, platform:platforms(name)')
    .eq('connection', 'official')
    .order('created_at', { ascending: true })
  if (error) throw new Error(`Could not load your Instagram accounts: ${error.message}`)
  // official X accounts have no automations: a customer has a handful of accounts, filtered here
  return data
    .filter((a) => a.platform?.name === 'instagram')
    .map(({ id, username, status }) => ({ id, username, status }))
}

/** The customer's automations, oldest first: the order the runner tries them in. */
export async function getAutomations(): Promise<Automation[]> {
  const { data, error } = await supabase
    .from('instagram_automations')
    .select('*')
    .order('created_at', { ascending: true })
  if (error) throw new Error(`Could not load your automations: ${error.message}`)
  return data
}
