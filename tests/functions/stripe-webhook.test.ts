// Billing end to end: checkout through the api function, payment on the Stripe sandbox, signed
// webhooks delivered by the sandbox to the stripe-webhook function behind the gateway. Replays,
// reordered deliveries, the trial ending, a failed charge and a cancellation all end in the state
// Stripe has; forged and unknown events are refused or ignored.
import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { api } from '../../stack/gateway/test/helpers.ts'
import { customer, eventually, invoke, type Json, sandbox, serviceClient, webhookSecret } from './helpers.ts'

const DAY = 86_400
type Buyer = Awaited<ReturnType<typeof customer>>

interface SandboxEvent {
  id: string
  type: string
  status: string
  attempts: { status: number | null }[]
}

async function buy(buyer: Buyer, accounts = 2, card?: string): Promise<string> {
  const checkout = await invoke(buyer.sb, 'api/api/create-checkout-session', 'POST', {
    userId: buyer.id,
    planType: 'growth',
    billingPeriod: 'monthly',
    accountCount: accounts,
    price: 0,
    source: 'google-ads',
  })
  expect(checkout.status).toBe(200)
  await sandbox(`checkout_sessions/${checkout.body.sessionId}/pay`, card ? { card } : {})
  return checkout.body.sessionId as string
}

async function subscriptionOf(buyer: Buyer) {
  const { data } = await buyer.sb.from('subscriptions').select('*').maybeSingle()
  return data as Json | null
}

async function profileOf(buyer: Buyer) {
  const { data } = await buyer.sb
    .from('user_profiles')
    .select('subscription_status, subscription_plan')
    .single()
  return data
}

async function noticesOf(buyer: Buyer) {
  const { data } = await buyer.sb.from('notifications').select('type').order('created_at')
  return (data ?? []).map((n) => n.type as string)
}

const eventsOf = async (customerId: string) =>
  (await sandbox<{ data: SandboxEvent[] }>(`events?customer=${customerId}`)).data

function signed(payload: string, secret = webhookSecret()) {
  const at = Math.floor(Date.now() / 1000)
  return `t=${at},v1=${createHmac('sha256', secret).update(`${at}.${payload}`).digest('hex')}`
}

const postWebhook = (payload: string, signature: string) =>
  fetch(`${api}/functions/v1/stripe-webhook`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature },
    body: payload,
  })

describe('stripe-webhook', () => {
  it('checkout end to end: trialing subscription, profile, notification, every event recorded once', async () => {
    const buyer = await customer('e2e')
    const sessionId = await buy(buyer, 3)
    const row = await eventually(async () => subscriptionOf(buyer))
    expect(row).toMatchObject({
      status: 'trialing',
      plan_type: 'growth',
      billing_period: 'monthly',
      accounts_purchased: 3,
      cancel_at_period_end: false,
    })
    expect(await profileOf(buyer)).toEqual({ subscription_status: 'trialing', subscription_plan: 'growth' })
    expect(await noticesOf(buyer)).toEqual(['subscription_started'])
    const { data: payments } = await buyer.sb.from('payments').select('id')
    expect(payments, 'the trial charges nothing, so there is no payment yet').toEqual([])

    const events = await eventsOf(row.stripe_customer_id as string)
    expect(events.map((e) => e.type).sort()).toEqual([
      'checkout.session.completed',
      'customer.subscription.created',
      'invoice.paid',
    ])
    expect(events.every((e) => e.status === 'delivered' && e.attempts.at(-1)?.status === 200)).toBe(true)
    const { data: recorded } = await serviceClient()
      .from('stripe_events')
      .select('id')
      .in(
        'id',
        events.map((e) => e.id),
      )
    expect(recorded).toHaveLength(3)
    const session = await invoke(buyer.sb, `api/api/checkout-session/${sessionId}`)
    expect(session.body).toMatchObject({
      metadata: { planType: 'growth', accounts: '3', traffic_source: 'google-ads' },
    })
    const limit = await buyer.sb.rpc('check_account_limit')
    expect(limit.data).toMatchObject({ limit: 3, planType: 'growth', canAddAccount: true })
  })

  it('a replayed event changes nothing', async () => {
    const buyer = await customer('replay')
    await buy(buyer)
    const before = await eventually(async () => subscriptionOf(buyer))
    const completed = (await eventsOf(before.stripe_customer_id as string)).find(
      (e) => e.type === 'checkout.session.completed',
    )
    const resent = await sandbox<{ status: string; attempts: number }>(`events/${completed?.id}/resend`, {})
    expect(resent.status).toBe('delivered')
    expect(await subscriptionOf(buyer)).toEqual(before)
    expect(await noticesOf(buyer)).toEqual(['subscription_started'])
  })

  it('events delivered newest first still end in the right state', async () => {
    const buyer = await customer('reorder')
    await sandbox('webhooks/hold', { email: buyer.email })
    await buy(buyer)
    expect(await subscriptionOf(buyer), 'nothing arrives while held').toBeNull()
    const { released } = await sandbox<{ released: string[] }>('webhooks/release', {
      email: buyer.email,
      order: 'reverse',
    })
    expect(released).toHaveLength(3)
    const row = await eventually(async () => subscriptionOf(buyer))
    expect(row).toMatchObject({ status: 'trialing', accounts_purchased: 2 })
    expect(await noticesOf(buyer)).toEqual(['subscription_started'])

    // Hold again across the end of the trial, then deliver the renewal before the older events.
    await sandbox('webhooks/hold', { customer: row.stripe_customer_id })
    await sandbox('clock/advance', { seconds: 3 * DAY + 3600, customer: row.stripe_customer_id })
    await sandbox('webhooks/release', { customer: row.stripe_customer_id, order: 'reverse' })
    const active = await eventually(async () => {
      const current = await subscriptionOf(buyer)
      return current?.status === 'active' ? current : null
    })
    expect(active.accounts_purchased).toBe(2)
    const { data: payments } = await buyer.sb.from('payments').select('amount, status')
    expect(payments).toEqual([{ amount: 7800, status: 'succeeded' }])
  })

  it('the trial ends: the subscription is active and the first charge is recorded in cents', async () => {
    const buyer = await customer('trialend')
    await buy(buyer, 4)
    const row = await eventually(async () => subscriptionOf(buyer))
    await sandbox('clock/advance', { seconds: 3 * DAY + 60, customer: row.stripe_customer_id })
    const active = await eventually(async () => {
      const current = await subscriptionOf(buyer)
      return current?.status === 'active' ? current : null
    })
    expect(new Date(active.current_period_end as string).getTime()).toBeGreaterThan(
      new Date(row.current_period_end as string).getTime(),
    )
    const payment = await eventually(
      async () => (await buyer.sb.from('payments').select('*').maybeSingle()).data,
    )
    expect(payment).toMatchObject({
      amount: 4 * 3900,
      currency: 'usd',
      status: 'succeeded',
      subscription_id: row.id,
    })
    expect(payment.stripe_invoice_id).toMatch(/^in_/)
    expect(await profileOf(buyer)).toEqual({ subscription_status: 'active', subscription_plan: 'growth' })
    expect(await noticesOf(buyer)).toEqual(['subscription_started', 'payment_succeeded'])
    // The billing page's path (not the doubled /api/api/…), and the page it names opens.
    const invoice = await invoke(buyer.sb, `api/invoices/${payment.stripe_invoice_id}`)
    expect(invoice.status).toBe(200)
    expect(invoice.body.url).toMatch(/^http/)
    const page = await fetch(String(invoice.body.url))
    expect(page.status).toBe(200)
    expect(await page.text()).toMatch(/<h2>Invoice [^<]+<\/h2>/)
  })

  it('a card that fails when charged: the payment fails and the subscription is past due', async () => {
    const buyer = await customer('declined')
    await buy(buyer, 1, '4000 0000 0000 0341')
    const row = await eventually(async () => subscriptionOf(buyer))
    await sandbox('clock/advance', { seconds: 3 * DAY + 60, customer: row.stripe_customer_id })
    const pastDue = await eventually(async () => {
      const current = await subscriptionOf(buyer)
      return current?.status === 'past_due' ? current : null
    })
    expect(pastDue.plan_type).toBe('growth')
    const { data: payments } = await buyer.sb.from('payments').select('amount, status')
    expect(payments).toEqual([{ amount: 3900, status: 'failed' }])
    expect(await noticesOf(buyer)).toContain('payment_failed')
    expect(await profileOf(buyer)).toEqual({ subscription_status: 'past_due', subscription_plan: 'free' })
  })

  it('cancel at period end: still usable until then, canceled after', async () => {
    const buyer = await customer('cancel')
    await buy(buyer)
    const row = await eventually(async () => subscriptionOf(buyer))
    const cancelled = await invoke(buyer.sb, 'api/billing/cancel', 'POST')
    expect(cancelled.body.subscription).toMatchObject({ cancel_at_period_end: true, status: 'trialing' })
    await eventually(async () => (await noticesOf(buyer)).includes('subscription_cancel_scheduled'))
    expect(await profileOf(buyer)).toEqual({ subscription_status: 'trialing', subscription_plan: 'growth' })

    await sandbox('clock/advance', { seconds: 3 * DAY + 60, customer: row.stripe_customer_id })
    const ended = await eventually(async () => {
      const current = await subscriptionOf(buyer)
      return current?.status === 'canceled' ? current : null
    })
    expect(ended.cancel_at_period_end).toBe(true)
    expect(await profileOf(buyer)).toEqual({ subscription_status: 'canceled', subscription_plan: 'free' })
    expect(await noticesOf(buyer)).toContain('subscription_canceled')
    expect((await invoke(buyer.sb, 'api/billing/resume', 'POST')).body).toEqual({
      error: 'Subscription is not active',
    })
    const { data: payments } = await buyer.sb.from('payments').select('id')
    expect(payments, 'a trial cancelled before its end is never charged').toEqual([])
  })

  it('refuses a forged signature and ignores event types the product does not use', async () => {
    const payload = JSON.stringify({
      id: 'evt_forged_1',
      object: 'event',
      type: 'invoice.paid',
      data: { object: { id: 'in_x' } },
    })
    const forged = await postWebhook(payload, signed(payload, 'whsec_not_the_secret'))
    expect([forged.status, await forged.json()]).toEqual([400, { error: 'Invalid Stripe signature' }])
    const missing = await fetch(`${api}/functions/v1/stripe-webhook`, { method: 'POST', body: payload })
    expect([missing.status, await missing.json()]).toEqual([
      400,
      { error: 'Missing Stripe-Signature header' },
    ])

    const unknown = JSON.stringify({
      id: `evt_unknown_${Date.now()}`,
      object: 'event',
      type: 'charge.refunded',
      data: { object: { id: 'ch_1' } },
    })
    const ignored = await postWebhook(unknown, signed(unknown))
    expect([ignored.status, await ignored.json()]).toEqual([
      200,
      { received: true, ignored: true, reason: 'event type not handled' },
    ])
    const { data } = await serviceClient().from('stripe_events').select('id').eq('id', 'evt_forged_1')
    expect(data).toEqual([])
    const huge = 'x'.repeat(1024 * 1024 + 10)
    expect((await postWebhook(huge, signed(huge))).status).toBe(413)
  })
})
