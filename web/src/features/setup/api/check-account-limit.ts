import { supabase } from '@/lib/supabase'
import type { AccountLimit } from './types'

export const LIMIT_CHECK_FAILED = 'Failed to check account limits'
export const LIMIT_REACHED = 'Account limit reached. Please upgrade your plan to add more accounts.'
export const FREE_PLAN_LIMIT_TEXT =
  'You are currently limited to 1 social media account. Upgrade your plan to add more accounts.'

const FREE_LIMIT = 1
const PAYING = new Set(['active', 'trialing'])

/**
 * Spec §6 plan limits, read from the user's own rows: with no active subscription 1 account (free),
 * otherwise accounts_purchased. The server enforces the same rule when the account is created; this
 * check only decides what the modal offers. Any failure blocks adding (spec §8).
 */
export async function checkAccountLimit(userId: string): Promise<AccountLimit> {
  const [accounts, subscription] = await Promise.all([
    supabase.from('social_accounts').select('id', { count: 'exact', head: true }).eq('user_id', userId),
    supabase
      .from('subscriptions')
      .select('status, plan_type, accounts_purchased')
      .eq('user_id', userId)
      .order('current_period_end', { ascending: false, nullsFirst: false })
      .limit(1)
      .maybeSingle(),
  ])
  if (accounts.error || subscription.error) {
    console.error('Error checking account limits', accounts.error ?? subscription.error)
    return { canAddAccount: false, currentCount: 0, limit: 0, planType: 'unknown', error: LIMIT_CHECK_FAILED }
  }
  const currentCount = accounts.count ?? 0
  const row = subscription.data as {
    status: string
    plan_type: string | null
    accounts_purchased: number | null
  } | null
  if (!row || !PAYING.has(row.status)) {
    const canAddAccount = currentCount < FREE_LIMIT
    const reason = row ? 'Subscription is not active' : 'No subscription found'
    return {
      canAddAccount,
      currentCount,
      limit: FREE_LIMIT,
      planType: 'free',
      error: canAddAccount ? undefined : reason,
    }
  }
  const limit = Math.max(FREE_LIMIT, row.accounts_purchased ?? FREE_LIMIT)
  const canAddAccount = currentCount < limit
  return {
    canAddAccount,
    currentCount,
    limit,
    planType: row.plan_type ?? 'starter',
    error: canAddAccount ? undefined : `Account limit reached. You have ${currentCount}/${limit} accounts.`,
  }
}
