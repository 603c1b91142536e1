import { accountLimitSchema } from '@/lib/database/accounts'
import { parseJson } from '@/lib/database/parse-json'
import { supabase } from '@/lib/supabase'
import type { AccountLimit } from './types'

export const LIMIT_CHECK_FAILED = 'Failed to check account limits'
export const LIMIT_REACHED = 'Account limit reached. Please upgrade your plan to add more accounts.'
export const FREE_PLAN_LIMIT_TEXT =
  'You are currently limited to 1 social media account. Upgrade your plan to add more accounts.'

/** True for the texts that say the plan is full (they get a way to change plan beside them). */
export function isPlanLimitText(text: string): boolean {
  return text.startsWith('Account limit reached.') || text === FREE_PLAN_LIMIT_TEXT
}

/**
 * product.md §6 plan limits through `rpc/check_account_limit`, the same rule the database enforces on
 * insert (the sum of accounts_purchased over active or trialing subscriptions, else 1 on the free
 * plan), with the product's texts. Any failure blocks adding (product.md §8).
 */
export async function checkAccountLimit(_userId?: string): Promise<AccountLimit> {
  const { data, error } = await supabase.rpc('check_account_limit')
  if (error || !data) {
    console.error('Error checking account limits', error)
    return { canAddAccount: false, currentCount: 0, limit: 0, planType: 'unknown', error: LIMIT_CHECK_FAILED }
  }
  const { error: refusal, ...result } = parseJson(accountLimitSchema, data, 'The account limit check')
  return refusal === null ? result : { ...result, error: refusal }
}
