import { describe, expect, it } from 'vitest'
import { growthCardPrice, starterCardPrice } from './landing-pricing'

describe('landing pricing cards (product.md §9)', () => {
  it('Starter is $49 a month, or $39 a month billed annually ($468)', () => {
    expect(starterCardPrice('monthly')).toEqual({ amount: '$49', unit: '/mo', note: 'billed monthly' })
    expect(starterCardPrice('yearly')).toEqual({ amount: '$39', unit: '/mo', note: '$468 billed annually' })
  })

  it('Growth is priced per account by tier (1-5 $39, 6-20 $29, 21-50 $19)', () => {
    expect(growthCardPrice('monthly', 1).amount).toBe('$39')
    expect(growthCardPrice('monthly', 5).amount).toBe('$39')
    expect(growthCardPrice('monthly', 6).amount).toBe('$29')
    expect(growthCardPrice('monthly', 20).amount).toBe('$29')
    expect(growthCardPrice('monthly', 21).amount).toBe('$19')
    expect(growthCardPrice('monthly', 50).amount).toBe('$19')
  })

  it('Growth yearly shows 80 % of the tier price, rounded, and the yearly total', () => {
    expect(growthCardPrice('yearly', 1)).toEqual({
      amount: '$31',
      unit: '/account/mo',
      note: '$372 billed annually for 1 account',
    })
    expect(growthCardPrice('yearly', 10).amount).toBe('$23')
    expect(growthCardPrice('yearly', 30)).toMatchObject({
      amount: '$15',
      note: '$5,400 billed annually for 30 accounts',
    })
  })

  it('Growth monthly shows the month total for the chosen accounts', () => {
    expect(growthCardPrice('monthly', 6).note).toBe('$174 per month for 6 accounts')
  })
})
