// Webhook delivery as a receiver sees it: signatures stripe-node accepts, retries, replays, order.
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StripeSandbox } from './server.ts'
import {
  clientFor,
  control,
  growthCheckout,
  type Receiver,
  startReceiver,
  startSandbox,
  TEST_WEBHOOK_SECRET,
} from './test-support.ts'
import { signPayload } from './webhooks.ts'

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

type LogEntry = { id: string; type: string; status: string; attempts: Array<{ status: number | null }> }

/** The newest logged event of `type` once `done` holds for it (delivery retries run on timers). */
async function waitForEvent(type: string, done: (entry: LogEntry) => boolean): Promise<LogEntry | undefined> {
  const deadline = Date.now() + 10_000
  for (;;) {
    const entry = (await control<{ data: LogEntry[] }>(sandbox, `events?type=${type}`)).data.at(-1)
    if ((entry && done(entry)) || Date.now() > deadline) return entry
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

async function checkoutAndPay(email: string) {
  const session = await growthCheckout(stripe, email)
  await control(sandbox, `checkout_sessions/${session.id}/pay`, {})
  return session
}

describe('signed deliveries', () => {
  it('signs every event so stripe.webhooks.constructEvent accepts it, and rejects other secrets', async () => {
    const session = await checkoutAndPay('signed@example.com')
    const customer = String((await stripe.checkout.sessions.retrieve(session.id)).customer)
    const mine = receiver.deliveries.filter((d) => d.body.includes(customer))
    expect(mine.map((d) => d.type)).toEqual([
      'customer.subscription.created',
      'invoice.paid',
      'checkout.session.completed',
    ])
    for (const delivery of mine) {
      const event = stripe.webhooks.constructEvent(delivery.body, delivery.signature, TEST_WEBHOOK_SECRET)
      expect(event.id).toBe(delivery.id)
      expect(() =>
        stripe.webhooks.constructEvent(delivery.body, delivery.signature, 'whsec_someone_else'),
      ).toThrow(Stripe.errors.StripeSignatureVerificationError)
      expect(() =>
        stripe.webhooks.constructEvent(
          delivery.body.replace('"livemode": false', '"livemode": true'),
          delivery.signature,
          TEST_WEBHOOK_SECRET,
        ),
      ).toThrow(Stripe.errors.StripeSignatureVerificationError)
    }
    const completed = stripe.webhooks.constructEvent(
      mine[2]?.body ?? '',
      mine[2]?.signature ?? '',
      TEST_WEBHOOK_SECRET,
    )
    const object = completed.data.object as Stripe.Checkout.Session
    expect(object).toMatchObject({
      id: session.id,
      status: 'complete',
      metadata: { planType: 'growth', accounts: '3' },
    })
    expect(object.subscription).toMatch(/^sub_/)
  })

  it('produces the same header as stripe-node’s own test signer', async () => {
    const payload = '{"id":"evt_1"}'
    const header = await stripe.webhooks.generateTestHeaderStringAsync({
      payload,
      secret: TEST_WEBHOOK_SECRET,
      timestamp: 1_700_000_000,
    })
    expect(signPayload(payload, TEST_WEBHOOK_SECRET, 1_700_000_000)).toBe(header)
  })
})

describe('delivery log, retries and replays', () => {
  it('retries a failing endpoint with backoff until it answers 2xx, and logs every attempt', async () => {
    receiver.failNext(2, 503, 'customer.subscription.created')
    const session = await growthCheckout(stripe, 'retry@example.com')
    await control(sandbox, `checkout_sessions/${session.id}/pay`, {})
    const first = await waitForEvent('customer.subscription.created', (e) => e.status !== 'pending')
    expect(first?.status).toBe('delivered')
    expect(first?.attempts.map((a) => a.status)).toEqual([503, 503, 200])
  })

  it('gives up after the last attempt and marks the event failed', async () => {
    receiver.failNext(100, 500, 'checkout.session.completed')
    const session = await growthCheckout(stripe, 'gives-up@example.com')
    await control(sandbox, `checkout_sessions/${session.id}/pay`, {})
    const entry = await waitForEvent('checkout.session.completed', (e) => e.status !== 'pending')
    receiver.failNext(0)
    expect(entry?.status).toBe('failed')
    expect(entry?.attempts.map((a) => a.status)).toEqual([500, 500, 500, 500])
  })

  it('resends an event unchanged (same id) for replay tests', async () => {
    await checkoutAndPay('resend@example.com')
    const log = await control<{ data: LogEntry[] }>(sandbox, 'events?type=checkout.session.completed')
    const last = log.data.at(-1)
    const before = receiver.deliveries.filter((d) => d.id === last?.id)
    const result = await control<{ status: string }>(sandbox, `events/${last?.id}/resend`, {})
    expect(result.status).toBe('delivered')
    const after = receiver.deliveries.filter((d) => d.id === last?.id)
    expect(after).toHaveLength(before.length + 1)
    expect(JSON.parse(after.at(-1)?.body ?? '{}')).toEqual(JSON.parse(before.at(-1)?.body ?? '{}'))
  })

  it('holds a customer’s events and releases them newest first (out of order)', async () => {
    await control(sandbox, 'webhooks/hold', { email: 'order@example.com' })
    const session = await checkoutAndPay('order@example.com')
    const customer = String((await stripe.checkout.sessions.retrieve(session.id)).customer)
    await control(sandbox, 'clock/advance', { seconds: 4 * 86_400, customer })
    const held = await control<{ data: LogEntry[] }>(sandbox, `events?customer=${customer}`)
    expect(held.data.every((e) => e.status === 'held')).toBe(true)
    expect(receiver.deliveries.some((d) => d.body.includes(customer))).toBe(false)
    const { released } = await control<{ released: string[] }>(sandbox, 'webhooks/release', {
      email: 'order@example.com',
      order: 'reverse',
    })
    const arrived = receiver.deliveries.filter((d) => released.includes(d.id)).map((d) => d.type)
    expect(arrived).toEqual([
      'customer.subscription.updated',
      'invoice.paid',
      'checkout.session.completed',
      'invoice.paid',
      'customer.subscription.created',
    ])
  })
})

describe('persistence', () => {
  it('keeps customers, subscriptions, events and the clock across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stripe-sandbox-'))
    const stateFile = join(dir, 'state.json')
    try {
      const first = await startSandbox(receiver, { stateFile })
      const session = await growthCheckout(first.stripe, 'persist@example.com')
      await control(first.sandbox, `checkout_sessions/${session.id}/pay`, {})
      await control(first.sandbox, 'clock/advance', { seconds: 3600 })
      const subscription = String((await first.stripe.checkout.sessions.retrieve(session.id)).subscription)
      await first.sandbox.close()
      expect(existsSync(stateFile)).toBe(true)

      const second = await startSandbox(receiver, { stateFile })
      const client = clientFor(second.sandbox)
      expect((await client.subscriptions.retrieve(subscription)).status).toBe('trialing')
      expect((await control<{ offset_seconds: number }>(second.sandbox, 'clock')).offset_seconds).toBe(3600)
      expect(
        (await control<{ data: LogEntry[] }>(second.sandbox, 'events')).data.length,
      ).toBeGreaterThanOrEqual(3)
      await second.sandbox.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
