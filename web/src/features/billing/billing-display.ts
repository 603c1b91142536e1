import { type BillingPeriod, pricePerAccountMonth } from '@reachflow/domain'
import type { Subscription } from './api/types'

const DAY_MS = 86_400_000

/** The subscription's billing period, read from the length of its current period. */
export function subscriptionPeriod(
  sub: Pick<Subscription, 'current_period_start' | 'current_period_end'>,
): BillingPeriod | 'quarterly' {
  if (!sub.current_period_start || !sub.current_period_end) return 'monthly'
  const days = (Date.parse(sub.current_period_end) - Date.parse(sub.current_period_start)) / DAY_MS
  if (days >= 300) return 'yearly'
  if (days >= 80) return 'quarterly'
  return 'monthly'
}

/** Per-account monthly price of the plan, from the shared pricing module; null when not priced online. */
export function planMonthlyPrice(sub: Subscription): number | null {
  const period = subscriptionPeriod(sub)
  const accounts = Math.max(1, sub.accounts_purchased ?? 1)
  if (sub.plan_type === 'starter')
    return pricePerAccountMonth('starter', period === 'yearly' ? 'yearly' : 'monthly')
  if (sub.plan_type === 'growth')
    return pricePerAccountMonth('growth', period === 'yearly' ? 'yearly' : 'monthly', accounts)
  return null
}

export const subscriptionStatusLabel: Record<Subscription['status'], string> = {
  active: 'Active',
  trialing: 'Trial',
  past_due: 'Past due',
  canceled: 'Canceled',
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—'
  return new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' })
}

/** Accounts can change on a usable Starter or Growth plan; the 3 Month Bundle and Enterprise are fixed. */
export function canChangePlan(sub: Subscription): boolean {
  return (
    (sub.status === 'active' || sub.status === 'trialing') &&
    (sub.plan_type === 'starter' || sub.plan_type === 'growth') &&
    subscriptionPeriod(sub) !== 'quarterly'
  )
}
