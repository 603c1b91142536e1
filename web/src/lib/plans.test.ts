import { describe, expect, it } from 'vitest'
import { onboardingPlans, planName } from './plans'

const byId = (period: 'monthly' | 'yearly', accounts: number) =>
  Object.fromEntries(onboardingPlans(period, accounts).map((p) => [p.id, p]))

describe('onboarding plan cards (product.md §2, §9)', () => {
  it('are Starter, Growth (Most Popular) and the 3-Month Special', () => {
    const plans = onboardingPlans('yearly', 2)
    expect(plans.map((p) => p.id)).toEqual(['starter', 'growth', 'bundle'])
    expect(plans.filter((p) => p.popular).map((p) => p.id)).toEqual(['growth'])
    expect(plans.filter((p) => p.isSpecial).map((p) => p.badge)).toEqual(['3-Month Special'])
  })

  it('price Starter per month for the period, yearly billed annually at 12 times', () => {
    expect(byId('monthly', 2).starter).toMatchObject({ price: 49, billing: 'billed monthly' })
    expect(byId('yearly', 2).starter).toMatchObject({ price: 39, billing: '$468 billed annually' })
  })

  it("price Growth for the chosen accounts: monthly 'for N accounts', yearly 12 times billed annually", () => {
    expect(byId('monthly', 2).growth).toMatchObject({ price: 78, billing: 'for 2 accounts' })
    expect(byId('monthly', 10).growth).toMatchObject({ price: 290, billing: 'for 10 accounts' })
    expect(byId('yearly', 2).growth).toMatchObject({ price: 62, billing: '$744 billed annually' })
    expect(byId('yearly', 50).growth).toMatchObject({ price: 750, billing: '$9,000 billed annually' })
  })

  it('show the bundle with its original price, savings and own billing text', () => {
    expect(byId('yearly', 2).bundle).toMatchObject({
      price: 98,
      originalPrice: 147,
      savings: 'Save $49 (one month free)',
      billing: 'for 3 months',
    })
  })

  it('list DMs per day as accounts x 450', () => {
    expect(byId('monthly', 3).growth?.features).toContain('1,350 DMs per day')
  })
})

describe('planName', () => {
  it('names stored plan ids and tolerates the unknown', () => {
    expect(planName('growth')).toBe('Growth')
    expect(planName(null)).toBe('Free')
    expect(planName('custom')).toBe('Custom')
  })
})
