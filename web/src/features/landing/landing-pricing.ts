// What the landing pricing cards display, derived from the shared pricing module (product.md §2, §9).
import { type BillingPeriod, pricePerAccountMonth } from '@reachflow/domain'
import { usd } from '@/lib/plans'

export const LANDING_GROWTH_MIN = 1
export const LANDING_GROWTH_MAX = 50

export interface CardPrice {
  /** Large figure, e.g. '$39'. */
  amount: string
  /** Right after the figure, e.g. '/mo' or '/account/mo'. */
  unit: string
  /** The line under the price. */
  note: string
}

export function starterCardPrice(period: BillingPeriod): CardPrice {
  const perMonth = pricePerAccountMonth('starter', period)
  return {
    amount: usd(perMonth),
    unit: '/mo',
    note: period === 'yearly' ? `${usd(perMonth * 12)} billed annually` : 'billed monthly',
  }
}

export function growthCardPrice(period: BillingPeriod, accounts: number): CardPrice {
  const perAccount = pricePerAccountMonth('growth', period, accounts)
  const total = perAccount * accounts
  const forAccounts = `for ${accounts} account${accounts === 1 ? '' : 's'}`
  return {
    amount: usd(perAccount),
    unit: '/account/mo',
    note:
      period === 'yearly'
        ? `${usd(total * 12)} billed annually ${forAccounts}`
        : `${usd(total)} per month ${forAccounts}`,
  }
}
