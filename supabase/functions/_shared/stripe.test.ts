import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { ConfigError, envFrom } from './env.ts'
import { HttpError } from './errors.ts'
import { createStripeClient, Stripe, stripeSettings, verifyStripeEvent } from './stripe.ts'

Deno.test('settings: real Stripe by default, the sandbox when STRIPE_API_BASE is set', () => {
  assert.deepEqual(stripeSettings(envFrom({ STRIPE_SECRET_KEY: 'sk_live_x' })), { secretKey: 'sk_live_x' })
  assert.deepEqual(
    stripeSettings(envFrom({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_API_BASE: 'http://127.0.0.1:54340' })),
    {
      secretKey: 'sk_test_x',
      host: '127.0.0.1',
      port: 54340,
      protocol: 'http',
    },
  )
  assert.deepEqual(
    stripeSettings(envFrom({ STRIPE_SECRET_KEY: 'k', STRIPE_API_BASE: 'https://stripe.internal/' })),
    {
      secretKey: 'k',
      host: 'stripe.internal',
      port: 443,
      protocol: 'https',
    },
  )
  assert.throws(() => stripeSettings(envFrom({})), /STRIPE_SECRET_KEY is not set/)
  assert.throws(
    () => stripeSettings(envFrom({ STRIPE_SECRET_KEY: 'k', STRIPE_API_BASE: 'localhost:1' })),
    ConfigError,
  )
  assert.throws(
    () => stripeSettings(envFrom({ STRIPE_SECRET_KEY: 'k', STRIPE_API_BASE: 'http://h/v1' })),
    ConfigError,
  )
})

const SECRET = 'whsec_unit_test_secret'
const env = envFrom({ STRIPE_SECRET_KEY: 'sk_test_unit', STRIPE_WEBHOOK_SECRET: SECRET })
const payload = JSON.stringify(
  { id: 'evt_1', object: 'event', type: 'invoice.paid', data: { object: { id: 'in_1' } } },
  null,
  2,
)
// Signed here with node:crypto, independently of the stripe package, as Stripe documents it.
const sign = (body: string, secret = SECRET, at = Math.floor(Date.now() / 1000)) =>
  `t=${at},v1=${createHmac('sha256', secret).update(`${at}.${body}`).digest('hex')}`

async function rejection(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise
  } catch (error) {
    assert.ok(error instanceof HttpError)
    return error
  }
  throw new Error('expected a rejection')
}

Deno.test('verifyStripeEvent accepts a correctly signed raw body', async () => {
  const stripe = createStripeClient(env)
  const event = await verifyStripeEvent(stripe, payload, sign(payload), env)
  assert.equal(event.id, 'evt_1')
  assert.equal(event.type, 'invoice.paid')
})

Deno.test('forged, altered, stale or missing signatures are 400s', async () => {
  const stripe = createStripeClient(env)
  const forged = await rejection(verifyStripeEvent(stripe, payload, sign(payload, 'whsec_attacker'), env))
  assert.deepEqual([forged.status, forged.message], [400, 'Invalid Stripe signature'])
  const altered = await rejection(
    verifyStripeEvent(stripe, payload.replace('in_1', 'in_2'), sign(payload), env),
  )
  assert.equal(altered.status, 400)
  const stale = await rejection(
    verifyStripeEvent(stripe, payload, sign(payload, SECRET, Math.floor(Date.now() / 1000) - 3600), env),
  )
  assert.equal(stale.status, 400)
  const missing = await rejection(verifyStripeEvent(stripe, payload, null, env))
  assert.deepEqual([missing.status, missing.message], [400, 'Missing Stripe-Signature header'])
})

// The real client in Deno against the local stack's Stripe sandbox (npm test sets these).
const sandboxEnv = Deno.env.get('STRIPE_API_BASE') && Deno.env.get('STRIPE_SECRET_KEY')
Deno.test({
  name: 'the same client talks to the Stripe sandbox from Deno when STRIPE_API_BASE is set',
  ignore: !sandboxEnv,
  async fn() {
    const stripe = createStripeClient()
    const email = `deno-${crypto.randomUUID()}@example.com`
    const customer = await stripe.customers.create({ email, metadata: { source: 'deno test' } })
    assert.match(customer.id, /^cus_/)
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
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
      subscription_data: { trial_period_days: 3 },
      metadata: { planType: 'growth', accounts: '2' },
      success_url: 'http://127.0.0.1:1/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://127.0.0.1:1/cancel',
    })
    assert.equal(session.amount_total, 7800)
    assert.equal(new URL(session.url ?? '').origin, Deno.env.get('STRIPE_API_BASE'))
    const fetched = await stripe.checkout.sessions.retrieve(session.id, {
      expand: ['customer', 'line_items'],
    })
    assert.equal((fetched.customer as Stripe.Customer).email, email)
    assert.equal(fetched.line_items?.data[0]?.quantity, 2)
    await assert.rejects(stripe.subscriptions.retrieve('sub_missing'), (error: unknown) => {
      return error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404
    })
  },
})
