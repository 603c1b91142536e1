// Checkout and billing in-process, against the test stack's Stripe sandbox with the real stripe
// client: the server's own price whatever the client says, quantity = accounts, the trial, the
// metadata and return pages of product.md §7; a session only its owner can read; cancel and resume.
import assert from 'node:assert/strict'
import { createStripeClient } from '../_shared/stripe.ts'
import { functionRequest, jsonOf, newCustomer, stackEnv, type TestCustomer } from '../_shared/test-stack.ts'
import { createApiHandler } from './app.ts'
import { defaultDeps } from './deps.ts'

const env = stackEnv()
const handle = createApiHandler(defaultDeps(env))
const stripe = createStripeClient(env)
type Json = Record<string, unknown>

async function call(customer: TestCustomer, method: string, path: string, body?: unknown) {
  const response = await handle(functionRequest('api', path, { token: customer.token, method, body }))
  return { status: response.status, body: await jsonOf<Json & { error?: string }>(response) }
}

async function pay(sessionId: string) {
  const response = await fetch(`${env('STRIPE_API_BASE')}/__sandbox/checkout_sessions/${sessionId}/pay`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
  })
  assert.equal(response.status, 200, await response.clone().text())
  await response.body?.cancel()
}

Deno.test('checkout: the server prices the plan, quantity = accounts, trial, metadata, return pages', async () => {
  const ann = await newCustomer('checkout')
  const created = await call(ann, 'POST', '/api/create-checkout-session', {
    userId: ann.id,
    priceId: 'growth_monthly',
    planType: 'growth',
    billingPeriod: 'monthly',
    planName: 'Growth',
    price: 1,
    accountCount: 3,
    source: 'fb-offer',
  })
  assert.equal(created.status, 200, JSON.stringify(created.body))
  assert.match(created.body.url as string, /\/c\/pay\/cs_test_/)
  const session = await stripe.checkout.sessions.retrieve(created.body.sessionId as string, {
    expand: ['line_items'],
  })
  assert.equal(session.amount_total, 11_700, '3 accounts × $39, not the $1 the client sent')
  assert.equal(session.line_items?.data[0]?.quantity, 3)
  assert.equal(session.line_items?.data[0]?.price?.unit_amount, 3_900)
  assert.equal(session.mode, 'subscription')
  assert.equal(session.customer_email, ann.email)
  assert.deepEqual(session.metadata, {
    userId: ann.id,
    workspaceId: ann.id,
    planType: 'growth',
    billing_cycle: 'monthly',
    accounts: '3',
    traffic_source: 'fb-offer',
  })
  assert.equal(session.success_url, `${env('SITE_URL')}/success?session_id={CHECKOUT_SESSION_ID}`)
  assert.equal(session.cancel_url, `${env('SITE_URL')}/cancel`)

  await pay(session.id)
  const subscription = await stripe.subscriptions.retrieve(
    (await stripe.checkout.sessions.retrieve(session.id)).subscription as string,
  )
  assert.equal(subscription.status, 'trialing')
  assert.equal(((subscription.trial_end ?? 0) - (subscription.trial_start ?? 0)) / 86_400, 3, 'a 3-day trial')
  assert.equal(subscription.metadata.userId, ann.id)

  const read = await call(ann, 'GET', `/api/checkout-session/${session.id}`)
  assert.equal(read.status, 200)
  assert.deepEqual(
    { amount_total: read.body.amount_total, customer: read.body.customer, metadata: read.body.metadata },
    {
      amount_total: 11_700,
      customer: { email: ann.email },
      metadata: { planType: 'growth', billing_cycle: 'monthly', accounts: '3', traffic_source: 'fb-offer' },
    },
  )
  // What /success shows: a trial charges nothing today; the first charge is the
  // plan's price when the trial ends.
  assert.deepEqual(
    {
      outcome: read.body.outcome,
      amount_due_today: read.body.amount_due_today,
      first_charge_amount: read.body.first_charge_amount,
      first_charge_at: read.body.first_charge_at,
    },
    {
      outcome: 'trial',
      amount_due_today: 0,
      first_charge_amount: 11_700,
      first_charge_at: new Date((subscription.trial_end ?? 0) * 1000).toISOString(),
    },
  )
  const stranger = await newCustomer('peeker')
  assert.deepEqual(await call(stranger, 'GET', `/api/checkout-session/${session.id}`), {
    status: 404,
    body: { error: 'Checkout session not found' },
  })
  assert.equal((await call(ann, 'GET', '/api/checkout-session/cs_test_doesnotexist')).status, 404)
  assert.equal((await call(ann, 'GET', '/api/checkout-session/not-a-session')).status, 404)
})

Deno.test('yearly Starter and the 3 Month Bundle are priced from pricing.ts', async () => {
  const bob = await newCustomer('plans')
  const yearly = await call(bob, 'POST', '/api/create-checkout-session', {
    planType: 'starter',
    billingPeriod: 'yearly',
    accountCount: 7,
  })
  const yearlySession = await stripe.checkout.sessions.retrieve(yearly.body.sessionId as string, {
    expand: ['line_items'],
  })
  assert.equal(
    yearlySession.amount_total,
    46_800,
    '$39 a month billed annually, one account whatever the count',
  )
  assert.equal(yearlySession.line_items?.data[0]?.price?.recurring?.interval, 'year')
  assert.equal(yearlySession.metadata?.traffic_source, 'unknown')

  const bundle = await call(bob, 'POST', '/api/create-checkout-session', {
    planType: 'bundle',
    billingPeriod: 'monthly',
  })
  const bundleSession = await stripe.checkout.sessions.retrieve(bundle.body.sessionId as string, {
    expand: ['line_items'],
  })
  assert.equal(bundleSession.amount_total, 9_800)
  assert.equal(bundleSession.line_items?.data[0]?.price?.recurring?.interval_count, 3)
  assert.equal(bundleSession.metadata?.billing_cycle, 'quarterly')
})

Deno.test('what cannot be bought online, or for someone else, is refused', async () => {
  const cat = await newCustomer('refused')
  assert.deepEqual(
    await call(cat, 'POST', '/api/create-checkout-session', { planType: 'enterprise', accountCount: 60 }),
    {
      status: 422,
      body: { error: 'Enterprise plans (51+ accounts) are sold by our team: book a call' },
    },
  )
  assert.equal(
    (await call(cat, 'POST', '/api/create-checkout-session', { planType: 'growth', accountCount: 51 }))
      .status,
    422,
  )
  assert.equal(
    (await call(cat, 'POST', '/api/create-checkout-session', { planType: 'growth', accountCount: 2.5 }))
      .status,
    400,
  )
  assert.equal(
    (await call(cat, 'POST', '/api/create-checkout-session', { planType: 'gold' })).body.error,
    'planType must be starter, growth or bundle',
  )
  assert.deepEqual(
    await call(cat, 'POST', '/api/create-checkout-session', {
      planType: 'starter',
      userId: crypto.randomUUID(),
    }),
    { status: 403, body: { error: 'A checkout can only be started for yourself' } },
  )
})

Deno.test('cancel at period end, resume, and the billing portal', async () => {
  const dan = await newCustomer('billing')
  for (const path of ['/billing/cancel', '/billing/resume', '/billing/portal', '/api/subscription/cancel']) {
    assert.deepEqual(
      await call(dan, 'POST', path),
      { status: 404, body: { error: 'No subscription found' } },
      path,
    )
  }
  const created = await call(dan, 'POST', '/api/create-checkout-session', {
    planType: 'starter',
    billingPeriod: 'monthly',
  })
  await pay(created.body.sessionId as string)

  const cancelled = await call(dan, 'POST', '/billing/cancel')
  assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body))
  const row = cancelled.body.subscription as Json
  assert.equal(row.cancel_at_period_end, true)
  assert.equal(row.status, 'trialing')
  const stripeSide = await stripe.subscriptions.retrieve(row.stripe_subscription_id as string)
  assert.equal(stripeSide.cancel_at_period_end, true)
  const { data: stored } = await dan.db.from('subscriptions').select('cancel_at_period_end').single()
  assert.equal(stored?.cancel_at_period_end, true, 'the row is synced at once, before any webhook')

  const resumed = await call(dan, 'POST', '/api/subscription/resume')
  assert.equal((resumed.body.subscription as Json).cancel_at_period_end, false)
  assert.equal(
    (await stripe.subscriptions.retrieve(row.stripe_subscription_id as string)).cancel_at_period_end,
    false,
  )

  const portal = await call(dan, 'POST', '/billing/portal')
  assert.match(portal.body.url as string, /\/p\/session\/bps_/)
})
