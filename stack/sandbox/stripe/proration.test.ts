// Buying more mid-period: invoices.createPreview shows the proration, subscriptions.update with the
// same proration_date bills exactly that at once, and a card that refuses the charge changes nothing
// (pending_if_incomplete), as Stripe does.
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

/** An active (no trial) 5-account subscription at $39, ten days into its first month. */
async function fiveAccounts(email: string) {
  const session = await growthCheckout(stripe, email, 5, 0)
  await control(sandbox, `checkout_sessions/${session.id}/pay`, {})
  const done = await stripe.checkout.sessions.retrieve(session.id)
  const customer = String(done.customer)
  const { now } = await control<{ now: number }>(sandbox, 'clock/advance', { seconds: 10 * DAY, customer })
  const subscription = await stripe.subscriptions.retrieve(String(done.subscription))
  const item = subscription.items.data[0]
  if (!item) throw new Error('no subscription item')
  return { customer, subscription, item, now }
}

const tenAt29 = (item: Stripe.SubscriptionItem) => [
  {
    id: item.id,
    quantity: 10,
    price_data: {
      currency: 'usd',
      unit_amount: 2900,
      product: String(item.price.product),
      recurring: { interval: 'month' as const },
    },
  },
]

describe('changing the number of accounts mid-period', () => {
  it('previews the proration and bills exactly that at once', async () => {
    const { subscription, item, now } = await fiveAccounts('prorate@example.com')
    const share = (item.current_period_end - now) / (item.current_period_end - item.current_period_start)
    const credit = -Math.round(5 * 3900 * share)
    const charge = Math.round(10 * 2900 * share)

    const preview = await stripe.invoices.createPreview({
      subscription: subscription.id,
      subscription_details: {
        items: tenAt29(item),
        proration_behavior: 'always_invoice',
        proration_date: now,
      },
    })
    expect(preview.lines.data.map((l) => [l.amount, l.parent?.subscription_item_details?.proration])).toEqual(
      [
        [credit, true],
        [charge, true],
      ],
    )
    expect(preview.lines.data[0]?.description).toMatch(/^Unused time on 5 × Growth after /)
    expect(preview.lines.data[1]?.description).toMatch(/^Remaining time on 10 × Growth after /)
    expect(preview.amount_due).toBe(credit + charge)
    expect(preview.id).toMatch(/^upcoming_in_/)
    const before = await stripe.invoices.list({ subscription: subscription.id })

    const updated = await stripe.subscriptions.update(subscription.id, {
      items: tenAt29(item),
      proration_behavior: 'always_invoice',
      proration_date: now,
      payment_behavior: 'pending_if_incomplete',
      expand: ['latest_invoice'],
    })
    expect(updated.items.data[0]?.quantity).toBe(10)
    expect(updated.items.data[0]?.price.unit_amount).toBe(2900)
    expect(updated.pending_update).toBeNull()
    const invoice = updated.latest_invoice as Stripe.Invoice
    expect(invoice).toMatchObject({
      status: 'paid',
      billing_reason: 'subscription_update',
      amount_paid: credit + charge,
    })
    const after = await stripe.invoices.list({ subscription: subscription.id })
    expect(after.data.length).toBe(before.data.length + 1)
    const events = sandbox.store.state.events.map((r) => r.event)
    const changed = events.findLast(
      (e) =>
        e.type === 'customer.subscription.updated' &&
        (e.data.object as { id: string }).id === subscription.id,
    )
    expect(changed?.data.previous_attributes).toHaveProperty('items')
  })

  it('a refused charge leaves the items unchanged and the change pending', async () => {
    const { customer, subscription, item, now } = await fiveAccounts('refused@example.com')
    const card = sandbox.store.state.cards[customer]
    if (!card) throw new Error('no card on file')
    card.behaviour = 'declined'
    const updated = await stripe.subscriptions.update(subscription.id, {
      items: tenAt29(item),
      proration_behavior: 'always_invoice',
      proration_date: now,
      payment_behavior: 'pending_if_incomplete',
      expand: ['latest_invoice'],
    })
    expect(updated.items.data[0]?.quantity).toBe(5)
    expect(updated.pending_update?.subscription_items?.[0]?.quantity).toBe(10)
    expect((updated.latest_invoice as Stripe.Invoice).status).toBe('open')
    expect(updated.status).toBe('active')
  })

  it('refuses what it does not imitate, and metadata beside pending_if_incomplete, as Stripe does', async () => {
    const { subscription, item } = await fiveAccounts('refusals@example.com')
    await expect(
      stripe.subscriptions.update(subscription.id, {
        items: tenAt29(item),
        proration_behavior: 'create_prorations',
      }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'proration_behavior' })
    await expect(
      stripe.subscriptions.update(subscription.id, {
        items: tenAt29(item),
        proration_behavior: 'always_invoice',
        payment_behavior: 'pending_if_incomplete',
        metadata: { accounts: '10' },
      }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'payment_behavior' })
    await expect(
      stripe.invoices.createPreview({
        subscription: subscription.id,
        subscription_details: { items: [{ id: 'si_missing', quantity: 2 }] },
      }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'items[0][id]' })
  })
})
