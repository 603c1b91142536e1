// The real `stripe` client against the sandbox, one call of each kind Reachflow makes.
import type Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StripeSandbox } from './server.ts'
import {
  clientFor,
  control,
  growthCheckout,
  type Receiver,
  startReceiver,
  startSandbox,
} from './test-support.ts'

let receiver: Receiver
let sandbox: StripeSandbox
let stripe: Stripe

beforeAll(async () => {
  receiver = await startReceiver()
  ;({ sandbox, stripe } = await startSandbox(receiver))
})
afterAll(async () => {
  await sandbox.close()
  await receiver.close()
})

async function paidSession(email: string) {
  const session = await growthCheckout(stripe, email)
  await control(sandbox, `checkout_sessions/${session.id}/pay`, {})
  return stripe.checkout.sessions.retrieve(session.id, { expand: ['customer', 'subscription', 'line_items'] })
}

describe('customers', () => {
  it('creates, retrieves, updates, lists by email and searches', async () => {
    const created = await stripe.customers.create({
      email: 'Ann@Example.com',
      name: 'Ann',
      metadata: { user_id: 'u-ann' },
    })
    expect(created.id).toMatch(/^cus_/)
    const fetched = await stripe.customers.retrieve(created.id)
    expect(fetched).toMatchObject({ email: 'Ann@Example.com', metadata: { user_id: 'u-ann' } })
    const updated = await stripe.customers.update(created.id, {
      name: 'Ann B',
      metadata: { user_id: '', plan: 'growth' },
    })
    expect(updated.name).toBe('Ann B')
    expect(updated.metadata).toEqual({ plan: 'growth' })
    const listed = await stripe.customers.list({ email: 'ann@example.com' })
    expect(listed.data.map((c) => c.id)).toEqual([created.id])
    const searched = await stripe.customers.search({
      query: "email:'ann@example.com' AND metadata['plan']:'growth'",
    })
    expect(searched.data.map((c) => c.id)).toEqual([created.id])
    const none = await stripe.customers.search({ query: "email:'nobody@example.com'" })
    expect(none.data).toEqual([])
  })

  it('pages lists newest first and auto-pagination walks every page', async () => {
    const ids: string[] = []
    for (let i = 0; i < 5; i++) ids.push((await stripe.customers.create({ email: 'pager@example.com' })).id)
    const first = await stripe.customers.list({ email: 'pager@example.com', limit: 2 })
    expect(first.has_more).toBe(true)
    const all = await stripe.customers
      .list({ email: 'pager@example.com', limit: 2 })
      .autoPagingToArray({ limit: 100 })
    expect(new Set(all.map((c) => c.id))).toEqual(new Set(ids))
    expect(all).toHaveLength(5)
  })
})

describe('products and prices', () => {
  it('creates and retrieves a recurring price for a product', async () => {
    const product = await stripe.products.create({ name: 'Starter', metadata: { plan: 'starter' } })
    const price = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      unit_amount: 4900,
      recurring: { interval: 'month' },
    })
    const fetched = await stripe.prices.retrieve(price.id, { expand: ['product'] })
    expect(fetched.unit_amount).toBe(4900)
    expect(fetched.recurring).toMatchObject({ interval: 'month', interval_count: 1 })
    expect((fetched.product as Stripe.Product).name).toBe('Starter')
    expect((await stripe.products.retrieve(product.id)).metadata).toEqual({ plan: 'starter' })
  })
})

describe('checkout sessions', () => {
  it('creates a subscription-mode session with price_data, quantity, trial and metadata', async () => {
    const session = await growthCheckout(stripe, 'buyer@example.com', 4)
    expect(session).toMatchObject({
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: 4 * 3900,
      currency: 'usd',
      customer_email: 'buyer@example.com',
      client_reference_id: 'user-1',
      metadata: { planType: 'growth', accounts: '4' },
    })
    expect(session.url).toBe(`${sandbox.url}/c/pay/${session.id}`)
    expect(session.success_url).toContain('{CHECKOUT_SESSION_ID}')
    const items = await stripe.checkout.sessions.listLineItems(session.id)
    expect(items.data[0]).toMatchObject({ quantity: 4, amount_total: 15600, description: 'Growth' })
  })

  it('accepts an existing price and customer', async () => {
    const customer = await stripe.customers.create({ email: 'existing@example.com' })
    const price = await stripe.prices.create({
      currency: 'usd',
      unit_amount: 9800,
      recurring: { interval: 'month', interval_count: 3 },
      product_data: { name: '3 Month Bundle' },
    })
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: price.id, quantity: 1 }],
      success_url: 'http://127.0.0.1:9/success?session_id={CHECKOUT_SESSION_ID}',
    })
    await control(sandbox, `checkout_sessions/${session.id}/pay`, {})
    const done = await stripe.checkout.sessions.retrieve(session.id, {
      expand: ['subscription.latest_invoice'],
    })
    const subscription = done.subscription as Stripe.Subscription
    expect(done.customer).toBe(customer.id)
    expect(done.payment_status).toBe('paid')
    expect(subscription.status).toBe('active')
    expect((subscription.latest_invoice as Stripe.Invoice).amount_paid).toBe(9800)
    const item = subscription.items.data[0]
    expect(item && (item.current_period_end - item.current_period_start) / 86_400).toBeGreaterThanOrEqual(89)
  })

  it('retrieves a completed session with customer, subscription and line_items expanded', async () => {
    const session = await paidSession('expand@example.com')
    expect(session.status).toBe('complete')
    expect(session.payment_status).toBe('no_payment_required')
    expect((session.customer as Stripe.Customer).email).toBe('expand@example.com')
    const subscription = session.subscription as Stripe.Subscription
    expect(subscription).toMatchObject({ status: 'trialing', metadata: { userId: 'user-1' } })
    expect(subscription.trial_end).toBe((subscription.trial_start ?? 0) + 3 * 86_400)
    expect(subscription.items.data[0]?.quantity).toBe(3)
    expect(session.line_items?.data[0]?.quantity).toBe(3)
  })

  it('answers Stripe-shaped errors that stripe-node turns into its error classes', async () => {
    await expect(stripe.checkout.sessions.retrieve('cs_test_missing')).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 404,
      code: 'resource_missing',
      message: "No such checkout.session: 'cs_test_missing'",
    })
    await expect(
      stripe.checkout.sessions.create({
        mode: 'subscription',
        success_url: 'http://127.0.0.1:9/ok',
      } as Stripe.Checkout.SessionCreateParams),
    ).rejects.toMatchObject({
      code: 'parameter_missing',
      param: 'line_items',
      message: 'Missing required param: line_items.',
    })
    await expect(
      stripe.checkout.sessions.create({
        mode: 'subscription',
        success_url: 'http://127.0.0.1:9/ok',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: 'usd',
              unit_amount: 100,
              recurring: { interval: 'fortnight' as 'month' },
              product_data: { name: 'x' },
            },
          },
        ],
      }),
    ).rejects.toMatchObject({ param: 'line_items[0][price_data][recurring][interval]' })
    await expect(
      stripe.customers.create({ colour: 'red' } as Stripe.CustomerCreateParams),
    ).rejects.toMatchObject({
      code: 'parameter_unknown',
      param: 'colour',
    })
    await expect(stripe.customers.retrieve('cus_missing', { expand: ['nothing'] })).rejects.toMatchObject({
      statusCode: 404,
    })
  })

  it('rejects a wrong or missing API key with 401', async () => {
    await expect(clientFor(sandbox, 'sk_test_wrong_key_000').customers.list()).rejects.toMatchObject({
      type: 'StripeAuthenticationError',
      statusCode: 401,
    })
    const response = await fetch(`${sandbox.url}/v1/customers`)
    expect(response.status).toBe(401)
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /did not provide an API key/,
    )
  })

  it('replays a request with the same idempotency key and refuses it with other parameters', async () => {
    const first = await stripe.customers.create(
      { email: 'idem@example.com' },
      { idempotencyKey: 'idem-key-1' },
    )
    const again = await stripe.customers.create(
      { email: 'idem@example.com' },
      { idempotencyKey: 'idem-key-1' },
    )
    expect(again.id).toBe(first.id)
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true')
    await expect(
      stripe.customers.create({ email: 'other@example.com' }, { idempotencyKey: 'idem-key-1' }),
    ).rejects.toMatchObject({
      type: 'StripeIdempotencyError',
    })
    expect((await stripe.customers.list({ email: 'idem@example.com' })).data).toHaveLength(1)
  })

  it('expires an open session so its page no longer takes payment', async () => {
    const session = await growthCheckout(stripe, 'expire@example.com')
    const expired = await stripe.checkout.sessions.expire(session.id)
    expect(expired.status).toBe('expired')
    expect((await fetch(`${sandbox.url}/c/pay/${session.id}`)).status).toBe(410)
  })
})

describe('subscriptions', () => {
  it('sets and clears cancel_at_period_end, then cancels at once', async () => {
    const session = await paidSession('subs@example.com')
    const id = (session.subscription as Stripe.Subscription).id
    const ending = await stripe.subscriptions.update(id, { cancel_at_period_end: true })
    expect(ending.cancel_at_period_end).toBe(true)
    expect(ending.cancel_at).toBe(ending.items.data[0]?.current_period_end)
    const resumed = await stripe.subscriptions.update(id, { cancel_at_period_end: false })
    expect(resumed).toMatchObject({ cancel_at_period_end: false, cancel_at: null, status: 'trialing' })
    const canceled = await stripe.subscriptions.cancel(id)
    expect(canceled.status).toBe('canceled')
    expect(canceled.ended_at).not.toBeNull()
    expect((await stripe.subscriptions.retrieve(id)).status).toBe('canceled')
    await expect(stripe.subscriptions.update(id, { cancel_at_period_end: true })).rejects.toMatchObject({
      statusCode: 400,
    })
    const customer = (session.customer as Stripe.Customer).id
    expect((await stripe.subscriptions.list({ customer })).data).toHaveLength(0)
    expect((await stripe.subscriptions.list({ customer, status: 'all' })).data.map((s) => s.id)).toEqual([id])
  })
})

describe('invoices and the billing portal', () => {
  it('lists and retrieves invoices with hosted page and PDF links that work', async () => {
    const session = await paidSession('invoices@example.com')
    const customer = (session.customer as Stripe.Customer).id
    const subscription = (session.subscription as Stripe.Subscription).id
    const invoices = await stripe.invoices.list({ customer })
    expect(invoices.data).toHaveLength(1)
    const invoice = await stripe.invoices.retrieve(invoices.data[0]?.id ?? '')
    expect(invoice).toMatchObject({ amount_paid: 0, status: 'paid', billing_reason: 'subscription_create' })
    expect(invoice.parent?.subscription_details?.subscription).toBe(subscription)
    expect((await stripe.invoices.list({ subscription })).data).toHaveLength(1)
    const page = await fetch(invoice.hosted_invoice_url ?? '')
    expect(await page.text()).toContain(`Invoice ${invoice.number}`)
    const pdf = await fetch(invoice.invoice_pdf ?? '')
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-')
  })

  it('creates a portal session whose page shows the plan and can cancel it', async () => {
    const session = await paidSession('portal@example.com')
    const customer = (session.customer as Stripe.Customer).id
    const portal = await stripe.billingPortal.sessions.create({
      customer,
      return_url: 'http://127.0.0.1:9/billing',
    })
    expect(portal.url).toBe(`${sandbox.url}/p/session/${portal.id}`)
    const html = await (await fetch(portal.url)).text()
    expect(html).toContain('portal@example.com')
    expect(html).toContain('Growth')
    expect(html).toContain('http://127.0.0.1:9/billing')
    const subscription = (session.subscription as Stripe.Subscription).id
    const cancel = await fetch(`${portal.url}/subscriptions/${subscription}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'cancel_at_period_end=true',
      redirect: 'manual',
    })
    expect(cancel.status).toBe(303)
    expect((await stripe.subscriptions.retrieve(subscription)).cancel_at_period_end).toBe(true)
    await expect(stripe.billingPortal.sessions.create({ customer: 'cus_nobody' })).rejects.toMatchObject({
      statusCode: 404,
    })
  })
})

describe('events', () => {
  it('retrieves a delivered event by id through the API', async () => {
    const session = await paidSession('events@example.com')
    const customer = (session.customer as Stripe.Customer).id
    const log = await control<{ data: Array<{ id: string; type: string }> }>(
      sandbox,
      `events?customer=${customer}`,
    )
    const completed = log.data.find((e) => e.type === 'checkout.session.completed')
    const event = await stripe.events.retrieve(completed?.id ?? '')
    expect((event.data.object as Stripe.Checkout.Session).id).toBe(session.id)
  })
})
