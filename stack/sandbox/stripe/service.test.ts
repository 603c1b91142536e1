// The sandbox as the stack runs it (stack/src/services.ts): on the instance's Stripe port, taking
// the local secret key that functions-env.ts hands to the functions.
import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { LOCAL_STRIPE_SECRET_KEY } from '../../src/functions-env.ts'

const base = process.env.STRIPE_API_BASE

describe.skipIf(!base)('the stack’s Stripe sandbox service', () => {
  it('answers the real client with the local key and serves its checkout page', async () => {
    const url = new URL(base ?? '')
    const stripe = new Stripe(LOCAL_STRIPE_SECRET_KEY, {
      host: url.hostname,
      port: Number(url.port),
      protocol: 'http',
    })
    const session = await stripe.checkout.sessions.create({
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
      customer_email: `service-${Date.now()}@example.com`,
      subscription_data: { trial_period_days: 3 },
      success_url: 'http://127.0.0.1:1/success?session_id={CHECKOUT_SESSION_ID}',
    })
    const page = await fetch(session.url ?? '')
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('Starter')
    const health = await fetch(`${base}/__sandbox/health`)
    expect(await health.json()).toEqual({ ok: true })
  })
})
