import { describe, expect, it } from 'vitest'
import type { Payment, Subscription } from './api/types'
import { planMonthlyPrice, subscriptionPeriod } from './billing-display'
import { paymentsToCsv } from './payments-csv'

const payment = (over: Partial<Payment>): Payment => ({
  id: 'p1',
  user_id: 'u1',
  amount: 4900,
  status: 'succeeded',
  payment_type: 'subscription',
  description: 'Starter plan',
  created_at: '2025-05-01T10:00:00Z',
  stripe_invoice_id: 'in_1',
  ...over,
})

describe('payments CSV export', () => {
  it('writes a header and one row per payment with dollars from cents, every field quoted', () => {
    const csv = paymentsToCsv([payment({}), payment({ id: 'p2', amount: 9800, stripe_invoice_id: null })])
    expect(csv.split('\r\n')).toEqual([
      '"Date","Description","Amount","Status","Type","Invoice"',
      '"2025-05-01","Starter plan","$49.00","succeeded","subscription","in_1"',
      '"2025-05-01","Starter plan","$98.00","succeeded","subscription",""',
      '',
    ])
  })

  it('quotes commas and quotes, and defuses spreadsheet formulas after any separator', () => {
    const csv = paymentsToCsv([
      payment({ description: 'Growth, "10 accounts"' }),
      payment({ description: '=HYPERLINK()' }),
      payment({ description: 'Sam;=1+1' }),
    ])
    const [, first, second, third] = csv.split('\r\n')
    expect(first).toContain('"Growth, ""10 accounts"""')
    expect(second).toContain(`"'=HYPERLINK()"`)
    expect(third).toContain(`"Sam;'=1+1"`)
  })
})

const sub = (over: Partial<Subscription>): Subscription => ({
  user_id: 'u1',
  status: 'active',
  plan_type: 'growth',
  accounts_purchased: 5,
  current_period_start: '2025-01-01T00:00:00Z',
  current_period_end: '2025-02-01T00:00:00Z',
  cancel_at_period_end: false,
  ...over,
})

describe('billing display', () => {
  it('reads the billing period from the length of the current period', () => {
    expect(subscriptionPeriod(sub({}))).toBe('monthly')
    expect(subscriptionPeriod(sub({ current_period_end: '2026-01-01T00:00:00Z' }))).toBe('yearly')
    expect(subscriptionPeriod(sub({ current_period_end: '2025-04-01T00:00:00Z' }))).toBe('quarterly')
  })

  it("prices the customer's plan with the shared pricing module ($31 is yearly growth for 1-5)", () => {
    expect(planMonthlyPrice(sub({}))).toBe(39)
    expect(planMonthlyPrice(sub({ current_period_end: '2026-01-01T00:00:00Z' }))).toBe(31)
    expect(planMonthlyPrice(sub({ accounts_purchased: 12 }))).toBe(29)
    expect(planMonthlyPrice(sub({ plan_type: 'starter' }))).toBe(49)
    expect(planMonthlyPrice(sub({ plan_type: 'enterprise' }))).toBeNull()
  })
})
