// How Stripe's objects become our rows: statuses, plan, billing period, accounts (quantity), periods
// from the subscription item (API 2025+), and which invoices are payments.
import assert from 'node:assert/strict'
import type { Stripe } from './stripe.ts'
import { invoiceSubscriptionId, paymentFor, productStatus, subscriptionRowFor } from './stripe-sync.ts'

const USER = '6f1c3c2e-0a3a-4a57-9e0b-0d6b1d8e4a11'

function subscription(
  overrides: Record<string, unknown> = {},
  price: Record<string, unknown> = {},
  quantity = 3,
) {
  return {
    id: 'sub_1',
    customer: 'cus_1',
    status: 'trialing',
    cancel_at_period_end: false,
    canceled_at: null,
    trial_end: 1_767_484_800,
    metadata: { userId: USER, planType: 'growth' },
    items: {
      data: [
        {
          id: 'si_1',
          quantity,
          current_period_start: 1_767_225_600,
          current_period_end: 1_767_484_800,
          price: { id: 'price_1', recurring: { interval: 'month', interval_count: 1 }, ...price },
        },
      ],
    },
    ...overrides,
  } as unknown as Stripe.Subscription
}

Deno.test('a trialing Growth subscription for 3 accounts', () => {
  const row = subscriptionRowFor(subscription(), USER, new Date('2026-01-01T00:00:05Z'))
  assert.deepEqual(row, {
    user_id: USER,
    status: 'trialing',
    plan_type: 'growth',
    billing_period: 'monthly',
    accounts_purchased: 3,
    stripe_customer_id: 'cus_1',
    stripe_subscription_id: 'sub_1',
    stripe_price_id: 'price_1',
    current_period_start: '2026-01-01T00:00:00.000Z',
    current_period_end: '2026-01-04T00:00:00.000Z',
    cancel_at_period_end: false,
    canceled_at: null,
    trial_end: '2026-01-04T00:00:00.000Z',
    stripe_synced_at: '2026-01-01T00:00:05.000Z',
  })
})

Deno.test('billing period from the price, plan from the metadata (or the quantity)', () => {
  const now = new Date()
  assert.equal(
    subscriptionRowFor(subscription({}, { recurring: { interval: 'year', interval_count: 1 } }), USER, now)
      .billing_period,
    'yearly',
  )
  assert.equal(
    subscriptionRowFor(
      subscription(
        { metadata: { planType: 'bundle' } },
        { recurring: { interval: 'month', interval_count: 3 } },
        1,
      ),
      USER,
      now,
    ).billing_period,
    'quarterly',
  )
  assert.equal(subscriptionRowFor(subscription({ metadata: {} }, {}, 1), USER, now).plan_type, 'starter')
  assert.equal(
    subscriptionRowFor(subscription({ metadata: { planType: 'platinum' } }), USER, now).plan_type,
    'growth',
  )
})

Deno.test("Stripe statuses map onto the product's", () => {
  assert.equal(productStatus('active'), 'active')
  assert.equal(productStatus('incomplete_expired'), 'canceled')
  assert.equal(productStatus('unpaid'), 'past_due')
  assert.equal(productStatus('paused'), 'past_due')
})

function invoice(overrides: Record<string, unknown>) {
  return {
    id: 'in_1',
    status: 'paid',
    amount_due: 11700,
    amount_paid: 11700,
    currency: 'usd',
    attempted: true,
    created: 1_767_484_800,
    description: null,
    status_transitions: { paid_at: 1_767_484_900 },
    lines: { data: [{ description: '3 × Reachflow Growth' }] },
    parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_1' } },
    ...overrides,
  } as unknown as Stripe.Invoice
}

Deno.test('paid, failed and $0 invoices', () => {
  assert.deepEqual(paymentFor(invoice({}), USER), {
    user_id: USER,
    amount: 11700,
    currency: 'usd',
    status: 'succeeded',
    payment_type: 'subscription',
    description: '3 × Reachflow Growth',
    stripe_invoice_id: 'in_1',
    created_at: '2026-01-04T00:01:40.000Z',
  })
  assert.equal(paymentFor(invoice({ status: 'open', amount_paid: 0 }), USER)?.status, 'failed')
  assert.equal(
    paymentFor(invoice({ status: 'open', amount_paid: 0, attempted: false }), USER)?.status,
    'pending',
  )
  assert.equal(
    paymentFor(invoice({ amount_due: 0, amount_paid: 0 }), USER),
    null,
    "a trial's $0 invoice is no payment",
  )
  assert.equal(invoiceSubscriptionId(invoice({})), 'sub_1')
  assert.equal(invoiceSubscriptionId(invoice({ parent: null })), null)
})

Deno.test('a plan change is named by what was bought, not by the credit line before it', () => {
  const change = invoice({
    billing_reason: 'subscription_update',
    amount_due: 6435,
    amount_paid: 6435,
    lines: {
      data: [
        { description: 'Unused time on 5 × Reachflow Growth after 12 Dec 2026' },
        { description: 'Remaining time on 10 × Reachflow Growth after 12 Dec 2026' },
      ],
    },
  })
  assert.equal(
    paymentFor(change, USER)?.description,
    'Remaining time on 10 × Reachflow Growth after 12 Dec 2026',
  )
})
