// What a change of the number of accounts means before Stripe is asked: the plan it lands on, its
// price (pricing.ts, never the client's), and whether the customer uses more accounts than it allows.
import {
  type ConnectedAccountRef,
  type DowngradeBlock,
  GROWTH_MAX_ACCOUNTS,
  PricingError,
  quote,
} from '@reachflow/domain'
import { conflict, type HttpError, unprocessable } from '../_shared/errors.ts'
import type { SubscriptionRow } from '../_shared/stripe-sync.ts'

export type ChangeablePlan = 'starter' | 'growth'

export type ConnectedAccount = ConnectedAccountRef

export const SAME_PLAN = 'That is already your plan.'
export const BUNDLE_FIXED =
  'The 3 Month Bundle covers 1 account. Choose a monthly or yearly plan when it ends to add more.'

/** Starter stays Starter at 1 account; any other count is Growth (1-50 accounts). */
export function targetPlan(current: string, accounts: number): ChangeablePlan {
  return current === 'starter' && accounts === 1 ? 'starter' : 'growth'
}

/** The new plan's price per interval, refusing what cannot be bought online or changed here. */
export function priceChange(row: SubscriptionRow, accounts: number) {
  if (row.plan_type === 'bundle' || row.billing_period === 'quarterly') throw unprocessable(BUNDLE_FIXED)
  if (row.plan_type === 'enterprise' || accounts > GROWTH_MAX_ACCOUNTS) {
    throw unprocessable('Enterprise plans (51+ accounts) are sold by our team: book a call')
  }
  const plan = targetPlan(row.plan_type, accounts)
  if (plan === row.plan_type && accounts === row.accounts_purchased) throw conflict(SAME_PLAN)
  const period = row.billing_period === 'yearly' ? 'yearly' : 'monthly'
  try {
    return quote(plan, period, accounts)
  } catch (error) {
    if (error instanceof PricingError) throw unprocessable(error.message)
    throw error
  }
}

/** Why a plan for `accounts` cannot be taken while these accounts are connected, or null. */
export function downgradeBlock(accounts: number, connected: ConnectedAccount[]): DowngradeBlock | null {
  const removeCount = connected.length - accounts
  if (removeCount <= 0) return null
  const plural = (n: number) => `${n} account${n === 1 ? '' : 's'}`
  return {
    message: `You have ${plural(connected.length)} connected. Remove ${plural(removeCount)} before changing to ${plural(accounts)}.`,
    removeCount,
    accounts: connected,
  }
}

/** The downgrade refusal as the API answers it (422, with the accounts to choose from). */
export function downgradeRefused(block: NonNullable<ReturnType<typeof downgradeBlock>>): HttpError {
  return unprocessable(block.message, { removeCount: block.removeCount, accounts: block.accounts })
}
