// Stripe webhooks beyond tests/functions/stripe-webhook.test.ts (which covers a forged signature, a
// replay after the fact and events delivered newest first): the same event delivered several times
// at once (Stripe does not promise one delivery at a time), a valid signature that is too old or
// belongs to another body, and a correctly signed event whose content disagrees with Stripe: the
// handler believes Stripe's API, not the payload.
import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { api } from '../../stack/gateway/test/helpers.ts'
import { customer, db, eventually, invoke, sandbox, webhookSecret } from '../functions/helpers.ts'

interface LoggedEvent {
  id: string
  type: string
  event: { id: string; type: string; data: { object: Record<string, unknown> } }
}

function signature(payload: string, at = Math.floor(Date.now() / 1000)) {
  return `t=${at},v1=${createHmac('sha256', webhookSecret()).update(`${at}.${payload}`).digest('hex')}`
}

async function deliver(payload: string, header = signature(payload)) {
  const response = await fetch(`${api}/functions/v1/stripe-webhook`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header },
    body: payload,
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

async function checkout(buyer: Awaited<ReturnType<typeof customer>>) {
  const session = await invoke(buyer.sb, 'api/api/create-checkout-session', 'POST', {
    planType: 'growth',
    billingPeriod: 'monthly',
    accountCount: 2,
  })
  expect(session.status).toBe(200)
  await sandbox(`checkout_sessions/${session.body.sessionId}/pay`, {})
  return session.body.sessionId as string
}

const completedEvent = async (sessionId: string) =>
  eventually(async () =>
    (await sandbox<{ data: LoggedEvent[] }>('events?type=checkout.session.completed')).data.find(
      (e) => e.event.data.object.id === sessionId,
    ),
  )

async function stateOf(userId: string) {
  const { rows } = await db().query(
    `select (select json_agg(json_build_object('status', status, 'accounts', accounts_purchased)) from public.subscriptions where user_id = $1) subs,
            (select count(*)::int from public.notifications where user_id = $1 and type = 'subscription_started') started`,
    [userId],
  )
  return rows[0] as { subs: { status: string; accounts: number }[] | null; started: number }
}

describe('stripe webhooks under abuse', () => {
  it('the same event delivered six times at once is handled exactly once', async () => {
    const buyer = await customer('dupes')
    await sandbox('webhooks/hold', { email: buyer.email })
    const sessionId = await checkout(buyer)
    const logged = await completedEvent(sessionId)
    const payload = JSON.stringify(logged.event)
    const replies = await Promise.all(Array.from({ length: 6 }, () => deliver(payload)))
    expect(replies.map((r) => r.status)).toEqual(Array(6).fill(200))
    expect(replies.filter((r) => r.body.duplicate === true).length).toBeGreaterThanOrEqual(5)
    expect(await stateOf(buyer.id)).toEqual({ subs: [{ status: 'trialing', accounts: 2 }], started: 1 })
    const claims = await db().query('select count(*)::int n from public.stripe_events where id = $1', [
      logged.id,
    ])
    expect(claims.rows[0]).toEqual({ n: 1 })
    // The sandbox's own (held) deliveries arrive later still: nothing changes.
    await sandbox('webhooks/release', { email: buyer.email, order: 'reverse' })
    await eventually(async () => {
      const events = (
        await sandbox<{ data: { status: string; event: { data: { object: Record<string, unknown> } } }[] }>(
          'events',
        )
      ).data
      return events.filter((e) => e.event.data.object.id === sessionId).every((e) => e.status === 'delivered')
    })
    expect(await stateOf(buyer.id)).toEqual({ subs: [{ status: 'trialing', accounts: 2 }], started: 1 })
  }, 60_000)

  it('an old signature, or a real signature over another body, is refused', async () => {
    const payload = JSON.stringify({
      id: `evt_stale_${Date.now()}`,
      object: 'event',
      type: 'invoice.paid',
      data: { object: { id: 'in_stale' } },
    })
    const stale = await deliver(payload, signature(payload, Math.floor(Date.now() / 1000) - 600))
    expect(stale).toEqual({ status: 400, body: { error: 'Invalid Stripe signature' } })
    const other = payload.replace('in_stale', 'in_other')
    const swapped = await deliver(other, signature(payload))
    expect(swapped).toEqual({ status: 400, body: { error: 'Invalid Stripe signature' } })
    const { rows } = await db().query(`select id from public.stripe_events where id like 'evt_stale_%'`)
    expect(rows).toEqual([])
  })

  it('a signed event that disagrees with Stripe changes nothing: Stripe is asked, the payload is not trusted', async () => {
    const buyer = await customer('liar')
    await checkout(buyer)
    const subscription = await eventually(async () => {
      const { rows } = await db().query(
        'select stripe_subscription_id, stripe_customer_id from public.subscriptions where user_id = $1',
        [buyer.id],
      )
      return rows[0] as { stripe_subscription_id: string; stripe_customer_id: string } | undefined
    })
    await eventually(async () =>
      (
        await sandbox<{ data: { status: string }[] }>(`events?customer=${subscription.stripe_customer_id}`)
      ).data.every((e) => e.status === 'delivered'),
    )
    const before = await stateOf(buyer.id)
    const lie = JSON.stringify({
      id: `evt_lie_${Date.now()}`,
      object: 'event',
      type: 'customer.subscription.updated',
      created: Math.floor(Date.now() / 1000) + 3600,
      data: {
        object: {
          id: subscription.stripe_subscription_id,
          object: 'subscription',
          customer: subscription.stripe_customer_id,
          status: 'active',
          quantity: 50,
          items: { data: [{ quantity: 50, price: { id: 'price_enterprise' } }] },
          metadata: { planType: 'enterprise', accounts: '50' },
        },
      },
    })
    const reply = await deliver(lie)
    expect(reply.status).toBeLessThan(500)
    expect(await stateOf(buyer.id)).toEqual(before)
    expect(before.subs).toEqual([{ status: 'trialing', accounts: 2 }])
  }, 60_000)
})
