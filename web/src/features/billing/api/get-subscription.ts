import { supabase } from '@/lib/supabase'
import type { Subscription } from './types'

const COLUMNS =
  'user_id, status, plan_type, accounts_purchased, current_period_start, current_period_end, cancel_at_period_end'

/** The workspace's latest subscription, or null when there is none. Errors are thrown. */
export async function getSubscription(workspaceId: string): Promise<Subscription | null> {
  const { data, error } = await supabase
    .from('subscriptions')
    .select(COLUMNS)
    .eq('workspace_id', workspaceId)
    .order('current_period_end', { ascending: false, nullsFirst: false })
    .limit(1)
    .maybeSingle()
  if (error) throw new Error(`Could not load your subscription: ${error.message}`)
  return data
}
