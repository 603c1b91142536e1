import assert from 'node:assert/strict'
import {
  BUNDLE_ORIGINAL_PRICE,
  formatCents,
  formatMoney,
  growthMonthlyPricePerAccount,
  onboardingGrowthPricePerAccount,
  PricingError,
  pricePerAccountMonth,
  quote,
  yearlyPerMonth,
} from './pricing.ts'

Deno.test('growth tiers follow the account count, custom above 50', () => {
  assert.deepEqual(
    [1, 5, 6, 20, 21, 50, 51, 0].map(growthMonthlyPricePerAccount),
    [39, 39, 29, 29, 19, 19, 0, 0],
  )
  assert.equal(onboardingGrowthPricePerAccount(1), 0)
  assert.equal(onboardingGrowthPricePerAccount(2), 39)
})

Deno.test('yearly is 80 % per month, rounded; starter yearly is 39 (468 a year)', () => {
  assert.equal(yearlyPerMonth(39), 31)
  assert.equal(yearlyPerMonth(29), 23)
  assert.equal(yearlyPerMonth(19), 15)
  assert.equal(pricePerAccountMonth('starter', 'yearly'), 39)
  assert.equal(pricePerAccountMonth('starter', 'monthly'), 49)
  assert.equal(quote('starter', 'yearly', 1).amountCents, 46_800)
})

Deno.test('checkout quotes charge per account with quantity = accounts', () => {
  const growth = quote('growth', 'monthly', 10)
  assert.equal(growth.unitAmountCents, 2_900)
  assert.equal(growth.amountCents, 29_000)
  assert.equal(growth.dmsPerDay, 4_500)
  assert.equal(growth.trialDays, 3)
  const yearly = quote('growth', 'yearly', 3)
  assert.equal(yearly.unitAmountCents, 31 * 12 * 100)
  assert.equal(yearly.interval, 'year')
  assert.equal(quote('starter', 'monthly', 7).accounts, 1)
})

Deno.test('the 3 month bundle is $98 every 3 months, one month saved against $147', () => {
  const bundle = quote('bundle', 'monthly', 1)
  assert.equal(bundle.amountCents, 9_800)
  assert.equal(bundle.intervalCount, 3)
  assert.equal(BUNDLE_ORIGINAL_PRICE, 147)
})

Deno.test('enterprise and bad counts cannot be bought online', () => {
  assert.throws(() => quote('enterprise', 'monthly', 60), PricingError)
  assert.throws(() => quote('growth', 'monthly', 51), PricingError)
  assert.throws(() => quote('growth', 'monthly', 0), PricingError)
  assert.throws(() => quote('growth', 'monthly', 2.5), PricingError)
})

Deno.test('amounts show as dollars with two decimals', () => {
  assert.equal(formatCents(4_900), '$49.00')
  assert.equal(formatCents(12_345), '$123.45')
  // Pages and notifications: the pricing cards' format.
  assert.equal(formatMoney(111_600), '$1,116')
  assert.equal(formatMoney(4_900), '$49')
  assert.equal(formatMoney(0), '$0')
  assert.equal(formatMoney(1_250), '$12.50')
  assert.equal(formatMoney(123_456_789), '$1,234,567.89')
})
