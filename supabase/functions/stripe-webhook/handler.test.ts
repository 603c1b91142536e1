// The webhook handler in-process, against the test stack and its Stripe sandbox. Events are signed
// here with STRIPE_WEBHOOK_SECRET (as Stripe documents it, with node:crypto) and name real sandbox
// objects, which the handler fetches again. The sandbox's own deliveries to the stack's function are
// covered by tests/functions/stripe-webhook.test.ts.
import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { serviceClient } from '../_shared/clients.ts'
import { createStripeClient } from '../_shared/stripe.ts'
import { functionRequest, jsonOf, newCustomer, stackEnv } from '../_shared/test-stack.ts'
import { handleStripeWebhook, MAX_EVENT_BYTES, type WebhookDeps } from './handler.ts'

const env = stackEnv()
const deps: WebhookDeps = { env, stripe: createStripeClient(env), service: serviceClient(env) }

function sign(payload: string, secret = env('STRIPE_WEBHOOK_SECRET') ?? '') {
  const at = Math.floor(Date.now() / 1000)
  return `t=${at},v1=${createHmac('sha256', secret).update(`${at}.${payload}`).digest('hex')}`
}

function deliver(payload: string, signature: string | null = sign(payload), method = 'POST') {
  return handleStripeWebhook(
    functionRequest('stripe-webhook', '', {
      method,
      rawBody: method === 'GET' ? undefined : payload,
      headers: signature ? { 'Stripe-Signature': signature, 'Content-Type': 'application/json' } : {},
    }),
    deps,
  )
}

async function refusal(promise: Promise<Response>): Promise<[number, string]> {
  try {
    await promise
  } catch (error) {
    const { errorResponse } = await import('../_shared/errors.ts')
    const response = errorResponse(error, () => {})
    return [response.status, (await response.json()).error]
  }
  throw new Error('expected a refusal')
}

const event = (
  type: string,
  object: Record<string, unknown>,
  id = `evt_test_${crypto.randomUUID().replaceAll('-', '')}`,
) => JSON.stringify({ id, object: 'event', type, created: Math.floor(Date.now() / 1000), data: { object } })

Deno.test('bad signatures, methods, sizes and bodies are clear 4xx', async () => {
  const payload = event('invoice.paid', { id: 'in_1' })
  assert.deepEqual(await refusal(deliver(payload, null)), [400, 'Missing Stripe-Signature header'])
  assert.deepEqual(await refusal(deliver(payload, sign(payload, 'whsec_forged'))), [
    400,
    'Invalid Stripe signature',
  ])
  assert.deepEqual(await refusal(deliver(payload.replace('in_1', 'in_2'), sign(payload))), [
    400,
    'Invalid Stripe signature',
  ])
  assert.equal((await refusal(deliver('', null, 'GET')))[0], 405)
  const huge = 'x'.repeat(MAX_EVENT_BYTES + 1)
  assert.equal((await refusal(deliver(huge, sign(huge))))[0], 413)
  assert.deepEqual(await refusal(deliver('not json', sign('not json'))), [
    400,
    'Webhook body must be a JSON event',
  ])
})

Deno.test('an event type the product does not use is acknowledged and ignored', async () => {
  const response = await deliver(event('customer.created', { id: 'cus_123' }))
  assert.equal(response.status, 200)
  assert.deepEqual(await response.json(), { received: true, ignored: true, reason: 'event type not handled' })
})

Deno.test('checkout completed: the subscription is fetched and stored once, a replay changes nothing', async () => {
  const buyer = await newCustomer('hook')
  const session = await deps.stripe.checkout.sessions.create({
    mode: 'subscription',
    line_items: [
      {
        quantity: 2,
        price_data: {
          currency: 'usd',
          unit_amount: 3900,
          recurring: { interval: 'month' },
          product_data: { name: 'Growth' },
        },
      },
    ],
    customer_email: buyer.email,
    client_reference_id: buyer.id,
    metadata: {
      userId: buyer.id,
      planType: 'growth',
      billing_cycle: 'monthly',
      accounts: '2',
      traffic_source: 'unknown',
    },
    subscription_data: { trial_period_days: 3 },
    success_url: 'http://127.0.0.1/success?session_id={CHECKOUT_SESSION_ID}',
  })
  // Paid through the sandbox's hosted-page endpoint; its own deliveries reach the stack's function.
  const paid = await fetch(`${env('STRIPE_API_BASE')}/__sandbox/checkout_sessions/${session.id}/pay`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
  })
  const completed = ((await paid.json()) as { session: Record<string, unknown> }).session

  // The subscription's metadata has no userId here: the owner comes from the session's metadata.
  const payload = event('checkout.session.completed', completed)
  const first = await deliver(payload)
  assert.equal(first.status, 200)
  assert.deepEqual(await first.json(), { received: true, type: 'checkout.session.completed' })
  const { data: rows } = await buyer.db
    .from('subscriptions')
    .select('status, plan_type, accounts_purchased, stripe_subscription_id')
  assert.deepEqual(rows, [
    {
      status: 'trialing',
      plan_type: 'growth',
      accounts_purchased: 2,
      stripe_subscription_id: completed.subscription,
    },
  ])
  const { data: profile } = await buyer.db
    .from('user_profiles')
    .select('subscription_status, subscription_plan')
    .single()
  assert.deepEqual(profile, { subscription_status: 'trialing', subscription_plan: 'growth' })
  const notices = async () => (await buyer.db.from('notifications').select('type')).data?.length ?? 0
  const before = await notices()

  const replay = await deliver(payload)
  assert.deepEqual(await jsonOf(replay), { received: true, duplicate: true })
  assert.equal(await notices(), before, 'a replay notifies nobody again')
})

Deno.test('a subscription no customer of ours owns is acknowledged and left alone', async () => {
  const customer = await deps.stripe.customers.create({ email: 'stranger@elsewhere.test' })
  const gone = await deliver(
    event('customer.subscription.deleted', { id: 'sub_unknown_to_us', customer: customer.id }),
  )
  assert.deepEqual(await jsonOf(gone), {
    received: true,
    ignored: true,
    reason: 'object not found at Stripe',
  })
  const session = await deps.stripe.checkout.sessions.create({
    mode: 'subscription',
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: 'usd',
          unit_amount: 4900,
          recurring: { interval: 'month' },
          product_data: { name: 'Starter' },
        },
      },
    ],
    customer: customer.id,
    success_url: 'http://127.0.0.1/success',
  })
  const paid = await fetch(`${env('STRIPE_API_BASE')}/__sandbox/checkout_sessions/${session.id}/pay`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
  })
  const { session: completed } = (await paid.json()) as { session: { subscription: string } }
  const ignored = await deliver(
    event('customer.subscription.updated', { id: completed.subscription, customer: customer.id }),
  )
  assert.deepEqual(await jsonOf(ignored), { received: true, ignored: true, reason: 'no customer of ours' })
})
