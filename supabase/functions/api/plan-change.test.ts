// Buying more (and fewer) accounts in-process, against the stack's Stripe sandbox: the preview is
// Stripe's proration, confirming bills exactly it and raises the limit at once; a downgrade below
// the connected accounts is explained and refused; a refused card or a stale preview changes nothing.
import assert from 'node:assert/strict'
import { createStripeClient } from '../_shared/stripe.ts'
import {
  functionRequest,
  jsonOf,
  newCustomer,
  sql,
  stackEnv,
  type TestCustomer,
} from '../_shared/test-stack.ts'
import { createApiHandler } from './app.ts'
import { defaultDeps } from './deps.ts'

const env = stackEnv()
const handle = createApiHandler(defaultDeps(env))
const stripe = createStripeClient(env)
const DAY = 86_400
type Json = Record<string, unknown>

async function call(customer: TestCustomer, path: string, body?: unknown) {
  const response = await handle(functionRequest('api', path, { token: customer.token, method: 'POST', body }))
  return { status: response.status, body: await jsonOf<Json & { error?: string }>(response) }
}

async function sandbox(path: string, body: unknown = {}) {
  const response = await fetch(`${env('STRIPE_API_BASE')}/__sandbox/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  assert.equal(response.status, 200, await response.clone().text())
  return (await response.json()) as Json
}

/** A paying Growth customer with `accounts` accounts, ten days into a month after the trial. */
async function growthCustomer(tag: string, accounts: number) {
  const customer = await newCustomer(tag)
  const created = await call(customer, '/api/create-checkout-session', {
    planType: 'growth',
    billingPeriod: 'monthly',
    accountCount: accounts,
  })
  assert.equal(created.status, 200, JSON.stringify(created.body))
  await sandbox(`checkout_sessions/${created.body.sessionId}/pay`)
  const session = await stripe.checkout.sessions.retrieve(created.body.sessionId as string)
  const stripeCustomer = String(session.customer)
  await sandbox('clock/advance', { seconds: 3 * DAY + 60, customer: stripeCustomer })
  await sandbox('clock/advance', { seconds: 10 * DAY, customer: stripeCustomer })
  return { customer, stripeCustomer, subscriptionId: String(session.subscription) }
}

async function connect(customer: TestCustomer, count: number, from = 0) {
  for (let i = from; i < from + count; i++) {
    await sql(
      `insert into public.social_accounts (user_id, platform_id, username, status)
       select $1, p.id, $2, 'active' from public.platforms p where p.name = 'twitter'`,
      [customer.id, `acct_${customer.id.slice(0, 6)}_${i}`],
    )
  }
}

const limitOf = async (customer: TestCustomer) => {
  const { data, error } = await customer.db.rpc('check_account_limit')
  if (error) throw error
  return data as { canAddAccount: boolean; limit: number; currentCount: number }
}

Deno.test('5 → 10 accounts: Stripe’s proration previewed, exactly it charged, the limit raised at once', async () => {
  const { customer, subscriptionId } = await growthCustomer('buy-more', 5)
  await connect(customer, 5)
  assert.equal((await limitOf(customer)).canAddAccount, false)

  const preview = await call(customer, '/billing/change-preview', { accounts: 10 })
  assert.equal(preview.status, 200, JSON.stringify(preview.body))
  const item = (await stripe.subscriptions.retrieve(subscriptionId)).items.data[0]
  assert.ok(item)
  const at = preview.body.prorationDate as number
  const share = (item.current_period_end - at) / (item.current_period_end - item.current_period_start)
  const lines = preview.body.lines as Array<{ description: string; amount: number }>
  assert.deepEqual(
    lines.map((l) => l.amount),
    [-Math.round(5 * 3900 * share), Math.round(10 * 2900 * share)],
    '5 × $39 credited, 10 × $29 charged, for the rest of the period',
  )
  assert.match(lines[1]?.description ?? '', /^Remaining time on 10 × Reachflow Growth after /)
  const due = preview.body.amountDue as number
  assert.equal(
    due,
    lines.reduce((sum, line) => sum + line.amount, 0),
  )
  assert.deepEqual(preview.body.next, {
    plan: 'growth',
    accounts: 10,
    unitAmount: 2900,
    amount: 29_000,
    dmsPerDay: 4500,
  })
  assert.equal(preview.body.blocked, null)

  const changed = await call(customer, '/billing/change-plan', { accounts: 10, prorationDate: at })
  assert.equal(changed.status, 200, JSON.stringify(changed.body))
  assert.equal(changed.body.amountPaid, due, 'the charge is what the preview showed')
  assert.equal((changed.body.subscription as Json).accounts_purchased, 10)
  const limit = await limitOf(customer)
  assert.deepEqual([limit.canAddAccount, limit.limit], [true, 10], 'the new limit holds before any webhook')
  await connect(customer, 1, 5)
  assert.equal((await limitOf(customer)).currentCount, 6, 'the 6th account connects')

  const stripeSide = await stripe.subscriptions.retrieve(subscriptionId)
  assert.equal(stripeSide.items.data[0]?.quantity, 10)
  assert.equal(stripeSide.metadata.accounts, '10')
  const { data: payments } = await customer.db.from('payments').select('amount, status').eq('amount', due)
  assert.deepEqual(
    payments,
    [{ amount: due, status: 'succeeded' }],
    'the proration is in the payment history',
  )
})

Deno.test('a downgrade below the connected accounts is explained, then refused by the server', async () => {
  const { customer, subscriptionId } = await growthCustomer('downgrade', 8)
  await connect(customer, 7)
  const preview = await call(customer, '/billing/change-preview', { accounts: 5 })
  assert.equal(preview.status, 200, JSON.stringify(preview.body))
  const blocked = preview.body.blocked as { message: string; removeCount: number; accounts: Json[] }
  assert.equal(
    blocked.message,
    'You have 7 accounts connected. Remove 2 accounts before changing to 5 accounts.',
  )
  assert.equal(blocked.removeCount, 2)
  assert.equal(blocked.accounts.length, 7)

  const refused = await call(customer, '/billing/change-plan', {
    accounts: 5,
    prorationDate: preview.body.prorationDate,
  })
  assert.equal(refused.status, 422)
  assert.equal(refused.body.error, blocked.message)
  assert.equal(
    (await stripe.subscriptions.retrieve(subscriptionId)).items.data[0]?.quantity,
    8,
    'Stripe untouched',
  )

  // Down to 7 fits: the unused time comes back as credit, nothing is charged.
  const fits = await call(customer, '/billing/change-preview', { accounts: 7 })
  assert.equal(fits.body.blocked, null)
  assert.equal(fits.body.amountDue, 0)
  assert.ok((fits.body.credit as number) > 0)
  const done = await call(customer, '/billing/change-plan', {
    accounts: 7,
    prorationDate: fits.body.prorationDate,
  })
  assert.equal(done.status, 200, JSON.stringify(done.body))
  assert.equal((await limitOf(customer)).limit, 7)
})

Deno.test('a refused card or a stale preview changes nothing', async () => {
  const { customer } = await growthCustomer('refused', 2)
  const stale = await call(customer, '/billing/change-preview', { accounts: 3 })
  const { data: row } = await customer.db.from('subscriptions').select('stripe_customer_id').single()
  await sandbox('clock/advance', { seconds: 2 * 3600, customer: row?.stripe_customer_id })
  const expired = await call(customer, '/billing/change-plan', {
    accounts: 3,
    prorationDate: stale.body.prorationDate,
  })
  assert.deepEqual(expired, {
    status: 409,
    body: { error: 'This price preview has expired. Please review the change again.' },
  })

  // A card that attaches but fails when charged, put on file through the billing portal.
  const portal = await call(customer, '/billing/portal')
  const form = await fetch(`${portal.body.url}/card`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ card: '4000 0000 0000 0341', expiry: '12 / 34', cvc: '123' }),
    redirect: 'manual',
  })
  await form.body?.cancel()
  const fresh = await call(customer, '/billing/change-preview', { accounts: 3 })
  const refused = await call(customer, '/billing/change-plan', {
    accounts: 3,
    prorationDate: fresh.body.prorationDate,
  })
  assert.equal(refused.status, 402, JSON.stringify(refused.body))
  assert.match(refused.body.error ?? '', /^Your card was declined, so your plan has not changed/)
  assert.equal((await limitOf(customer)).limit, 2, 'no limit Stripe did not accept')
  assert.deepEqual(await call(customer, '/billing/change-preview', { accounts: 2 }), {
    status: 409,
    body: { error: 'That is already your plan.' },
  })
})
