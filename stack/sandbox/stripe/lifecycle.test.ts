// Time moving on: trials ending, renewals, cancel at period end, failing cards and their retries.
import type Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StripeSandbox } from './server.ts'
import { control, DAY, growthCheckout, type Receiver, startReceiver, startSandbox } from './test-support.ts'

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

/** Checks out with `card` and returns ids; time then moves for this customer alone. */
async function subscribe(email: string, card = '4242 4242 4242 4242', accounts = 2) {
  const session = await growthCheckout(stripe, email, accounts)
  await control(sandbox, `checkout_sessions/${session.id}/pay`, { card })
  const done = await stripe.checkout.sessions.retrieve(session.id)
  return { customer: String(done.customer), subscription: String(done.subscription) }
}

const advance = (customer: string, seconds: number) =>
  control(sandbox, 'clock/advance', { seconds, customer })

function eventTypes(customer: string): string[] {
  return sandbox.store.state.events.filter((r) => r.customer === customer).map((r) => r.event.type)
}

describe('the test clock', () => {
  it('ends a trial: the first real invoice is paid and the subscription becomes active', async () => {
    const { customer, subscription } = await subscribe('trial-end@example.com')
    await advance(customer, 2 * DAY)
    expect((await stripe.subscriptions.retrieve(subscription)).status).toBe('trialing')
    await advance(customer, DAY + 60)
    const active = await stripe.subscriptions.retrieve(subscription, { expand: ['latest_invoice'] })
    expect(active.status).toBe('active')
    const invoice = active.latest_invoice as Stripe.Invoice
    expect(invoice).toMatchObject({
      status: 'paid',
      amount_paid: 2 * 3900,
      billing_reason: 'subscription_cycle',
    })
    expect(active.items.data[0]?.current_period_start).toBe(active.trial_end)
    expect(eventTypes(customer)).toEqual([
      'customer.subscription.created',
      'invoice.paid',
      'checkout.session.completed',
      'invoice.paid',
      'customer.subscription.updated',
    ])
    const updated = sandbox.store.state.events.findLast((r) => r.customer === customer)?.event
    expect(updated?.data.previous_attributes).toMatchObject({ status: 'trialing' })
  })

  it('renews every period of a long jump, one paid invoice per month', async () => {
    const { customer } = await subscribe('renewals@example.com')
    await advance(customer, 3 * DAY + 95 * DAY)
    const invoices = await stripe.invoices.list({ customer, limit: 100 })
    expect(invoices.data.map((i) => i.amount_paid)).toEqual([7800, 7800, 7800, 7800, 0])
    const periods = invoices.data.map((i) => i.period_start)
    expect(new Set(periods).size).toBe(5)
  })

  it('moves one customer alone, leaving other customers trialing', async () => {
    const first = await subscribe('alone-1@example.com')
    const second = await subscribe('alone-2@example.com')
    await advance(first.customer, 4 * DAY)
    expect((await stripe.subscriptions.retrieve(first.subscription)).status).toBe('active')
    expect((await stripe.subscriptions.retrieve(second.subscription)).status).toBe('trialing')
  })

  it('ends a subscription set to cancel at period end when that period ends', async () => {
    const { customer, subscription } = await subscribe('cancel-end@example.com')
    await advance(customer, 3 * DAY + 60)
    const active = await stripe.subscriptions.update(subscription, { cancel_at_period_end: true })
    await advance(customer, 27 * DAY)
    expect((await stripe.subscriptions.retrieve(subscription)).status).toBe('active')
    await advance(customer, 5 * DAY)
    const ended = await stripe.subscriptions.retrieve(subscription)
    expect(ended.status).toBe('canceled')
    expect(ended.ended_at).toBe(active.cancel_at)
    expect(eventTypes(customer).at(-1)).toBe('customer.subscription.deleted')
    expect((await stripe.invoices.list({ customer })).data).toHaveLength(2)
  })

  it('a card that fails when charged: past_due, retries, then canceled after the last retry', async () => {
    const { customer, subscription } = await subscribe('fails@example.com', '4000 0000 0000 0341')
    expect((await stripe.subscriptions.retrieve(subscription)).status).toBe('trialing')
    await advance(customer, 3 * DAY + 60)
    const pastDue = await stripe.subscriptions.retrieve(subscription, { expand: ['latest_invoice'] })
    expect(pastDue.status).toBe('past_due')
    expect(pastDue.latest_invoice as Stripe.Invoice).toMatchObject({ status: 'open', attempt_count: 1 })
    await advance(customer, 6 * DAY)
    expect((await stripe.subscriptions.retrieve(subscription)).status).toBe('canceled')
    const types = eventTypes(customer)
    expect(types.filter((t) => t === 'invoice.payment_failed')).toHaveLength(4)
    expect(types.at(-1)).toBe('customer.subscription.deleted')
  })

  it('a past_due subscription recovers when the customer puts in a working card in the portal', async () => {
    const { customer, subscription } = await subscribe('recovers@example.com', '4000 0000 0000 0341')
    await advance(customer, 3 * DAY + 60)
    const portal = await stripe.billingPortal.sessions.create({ customer })
    const response = await fetch(`${portal.url}/card`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ card: '4242424242424242', expiry: '12 / 40', cvc: '123' }),
      redirect: 'manual',
    })
    expect(response.status).toBe(303)
    const recovered = await stripe.subscriptions.retrieve(subscription, { expand: ['latest_invoice'] })
    expect(recovered.status).toBe('active')
    expect((recovered.latest_invoice as Stripe.Invoice).status).toBe('paid')
  })

  it('a card declined at checkout creates nothing', async () => {
    const session = await growthCheckout(stripe, 'declined@example.com')
    await expect(
      control(sandbox, `checkout_sessions/${session.id}/pay`, { card: '4000 0000 0000 0002' }),
    ).rejects.toThrow(/402.*declined/)
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open')
    expect((await stripe.customers.list({ email: 'declined@example.com' })).data).toHaveLength(0)
  })
})
