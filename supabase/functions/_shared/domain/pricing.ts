// Every price of product.md §9 in one module, used by the web app (pricing cards, onboarding, billing)
// and by the functions (checkout amounts). Plain TypeScript: no Deno or browser APIs.
// Where the original product brief read two ways, docs/decisions.md says which reading this module takes.

export type PlanId = 'starter' | 'growth' | 'enterprise' | 'bundle'
export type BillingPeriod = 'monthly' | 'yearly'

export const TRIAL_DAYS = 3
export const YEARLY_FACTOR = 0.8
export const DMS_PER_ACCOUNT_PER_DAY = 450
export const STARTER_MONTHLY = 49
export const STARTER_YEARLY_PER_MONTH = 39
export const GROWTH_MAX_ACCOUNTS = 50
export const ENTERPRISE_MIN_ACCOUNTS = 51
export const BUNDLE_PRICE = 98
export const BUNDLE_MONTHS = 3
/** Three months of Starter at the monthly price: paying $98 instead saves one month. */
export const BUNDLE_ORIGINAL_PRICE = STARTER_MONTHLY * BUNDLE_MONTHS

/** Growth per-account monthly price by account count: 1-5 $39, 6-20 $29, 21-50 $19; above 50 custom (0). */
export function growthMonthlyPricePerAccount(accounts: number): number {
  if (!Number.isInteger(accounts) || accounts < 1) return 0
  if (accounts <= 5) return 39
  if (accounts <= 20) return 29
  if (accounts <= GROWTH_MAX_ACCOUNTS) return 19
  return 0
}

/** Onboarding's growth reading: growth starts at 2 accounts, so fewer gives 0. */
export function onboardingGrowthPricePerAccount(accounts: number): number {
  return accounts < 2 ? 0 : growthMonthlyPricePerAccount(accounts)
}

/** Yearly billing shows 80 % of the monthly price per month, rounded to whole dollars. */
export function yearlyPerMonth(monthlyPrice: number): number {
  return Math.round(monthlyPrice * YEARLY_FACTOR)
}

/** Per-account, per-month price shown on a plan card for the chosen period. */
export function pricePerAccountMonth(
  plan: 'starter' | 'growth',
  period: BillingPeriod,
  accounts = 1,
): number {
  const monthly = plan === 'starter' ? STARTER_MONTHLY : growthMonthlyPricePerAccount(accounts)
  if (period === 'monthly') return monthly
  return plan === 'starter' ? STARTER_YEARLY_PER_MONTH : yearlyPerMonth(monthly)
}

export interface CheckoutQuote {
  plan: PlanId
  period: BillingPeriod
  accounts: number
  /** Charged per billing interval, in cents, for all accounts. */
  amountCents: number
  /** Per account per interval, in cents (Stripe's unit_amount with quantity = accounts). */
  unitAmountCents: number
  interval: 'month' | 'year'
  intervalCount: number
  dmsPerDay: number
  trialDays: number
}

export class PricingError extends Error {
  override name = 'PricingError'
}

/** What checkout charges for a plan; throws PricingError for what cannot be bought online. */
export function quote(plan: PlanId, period: BillingPeriod, accounts: number): CheckoutQuote {
  if (!Number.isInteger(accounts) || accounts < 1)
    throw new PricingError('Account count must be a whole number of 1 or more')
  if (plan === 'enterprise' || accounts > GROWTH_MAX_ACCOUNTS) {
    throw new PricingError('Enterprise plans (51+ accounts) are sold by our team: book a call')
  }
  if (plan === 'bundle') {
    const unit = BUNDLE_PRICE * 100
    return {
      plan,
      period: 'monthly',
      accounts: 1,
      amountCents: unit,
      unitAmountCents: unit,
      interval: 'month',
      intervalCount: BUNDLE_MONTHS,
      dmsPerDay: DMS_PER_ACCOUNT_PER_DAY,
      trialDays: TRIAL_DAYS,
    }
  }
  const count = plan === 'starter' ? 1 : accounts
  const perMonth = pricePerAccountMonth(plan, period, count)
  const unit = (period === 'yearly' ? perMonth * 12 : perMonth) * 100
  return {
    plan,
    period,
    accounts: count,
    amountCents: unit * count,
    unitAmountCents: unit,
    interval: period === 'yearly' ? 'year' : 'month',
    intervalCount: 1,
    dmsPerDay: count * DMS_PER_ACCOUNT_PER_DAY,
    trialDays: TRIAL_DAYS,
  }
}

/** Dollars from cents with two decimals and $, for exports (CSV) where columns must line up. */
export function formatCents(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`
}

/**
 * Money as people read it, the way the pricing cards show prices: "$49", "$1,116", and cents only
 * when there are some ("$12.50"). Every amount a customer sees on a page or in a notification.
 */
export function formatMoney(cents: number): string {
  const dollars = cents / 100
  const whole = Number.isInteger(dollars)
  return `${dollars < 0 ? '-' : ''}$${Math.abs(dollars).toLocaleString('en-US', {
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
  })}`
}
