// Billing per workspace, in-process against the test stack's Stripe sandbox: a checkout names the
// active workspace in Stripe's metadata, the webhook records the subscription under that workspace
// (not the buyer's personal one), the workspace keeps its own Stripe customer for every later
// checkout and portal, its trial is its own, a member who is not the owner is refused every
// billing call with the workspace error, and billing notices go to the subscription's workspace,
// for its owner's eyes.
import assert from 'node:assert/strict'
import { createStripeClient, type Stripe } from '../_shared/stripe.ts'
import { syncSubscription } from '../_shared/stripe-sync.ts'
import { callerOf, newCustomer, serviceDb, stackEnv, type TestCustomer } from '../_shared/test-stack.ts'
import { ROLE_REFUSED } from '../_shared/workspace-role.ts'
import { createApiHandler } from './app.ts'
import { defaultDeps } from './deps.ts'

const env = stackEnv()
const handle = createApiHandler(defaultDeps(env))
const stripe = createStripeClient(env)
type Json = Record<string, unknown>

const call = callerOf(handle, 'api')

async function pay(sessionId: string) {
  const response = await fetch(`${env('STRIPE_API_BASE')}/__sandbox/checkout_sessions/${sessionId}/pay`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
  })
  assert.equal(response.status, 200, await response.clone().text())
  await response.body?.cancel()
}

async function createWorkspace(owner: TestCustomer, name: string): Promise<string> {
  const { data, error } = await owner.db.rpc('create_workspace', { p_name: name })
  if (error) throw new Error(`create_workspace: ${error.message}`)
  return data
}

async function buy(owner: TestCustomer, accountCount: number) {
  const created = await call(owner, 'POST', '/api/create-checkout-session', {
    planType: 'growth',
    billingPeriod: 'monthly',
    accountCount,
  })
  assert.equal(created.status, 200, JSON.stringify(created.body))
  const session = await stripe.checkout.sessions.retrieve(created.body.sessionId as string)
  await pay(session.id)
  const subscriptionId = (await stripe.checkout.sessions.retrieve(session.id)).subscription as string
  return { session, subscription: await stripe.subscriptions.retrieve(subscriptionId) }
}

async function workspaceRow(id: string) {
  const { data, error } = await serviceDb(env)
    .from('workspaces')
    .select('stripe_customer_id, subscription_plan, subscription_status')
    .eq('id', id)
    .single()
  if (error) throw new Error(error.message)
  return data
}

Deno.test('a client workspace is billed to its own customer, its subscription recorded under it', async () => {
  const agency = await newCustomer('agency')
  const personal = await buy(agency, 2)
  assert.equal(personal.session.metadata?.workspaceId, agency.id, 'the personal workspace bought first')

  const client = await createWorkspace(agency, 'Client North')
  const first = await buy(agency, 3)
  assert.equal(first.session.metadata?.workspaceId, client)
  assert.equal(first.subscription.metadata.workspaceId, client, 'the subscription carries the workspace')
  assert.equal(first.session.customer_email, agency.email, 'a new workspace gets a customer of its own')
  assert.notEqual(first.subscription.customer, personal.subscription.customer)
  assert.equal(first.subscription.status, 'trialing', "the workspace's first plan has its trial")

  const { data: rows } = await serviceDb(env)
    .from('subscriptions')
    .select('workspace_id, accounts_purchased')
    .eq('user_id', agency.id)
    .order('accounts_purchased')
  assert.deepEqual(rows, [
    { workspace_id: agency.id, accounts_purchased: 2 },
    { workspace_id: client, accounts_purchased: 3 },
  ])
  assert.deepEqual(await workspaceRow(client), {
    stripe_customer_id: first.subscription.customer,
    subscription_plan: 'growth',
    subscription_status: 'trialing',
  })
  const { data: limit } = await agency.db.rpc('check_account_limit')
  assert.equal((limit as Json).limit, 3, 'the client workspace has its own limit')

  // A second checkout for the workspace reuses its customer and has no second trial.
  const again = await call(agency, 'POST', '/api/create-checkout-session', { planType: 'starter' })
  assert.equal(again.status, 200, JSON.stringify(again.body))
  const session = await stripe.checkout.sessions.retrieve(again.body.sessionId as string)
  assert.equal(session.customer, first.subscription.customer)
  await pay(session.id)
  const second = await stripe.subscriptions.retrieve(
    (await stripe.checkout.sessions.retrieve(session.id)).subscription as string,
  )
  assert.equal(second.status, 'active', 'no second trial for the workspace')

  const portal = await call(agency, 'POST', '/billing/portal')
  assert.equal(portal.status, 200, JSON.stringify(portal.body))
  const cancelled = await call(agency, 'POST', '/billing/cancel')
  assert.equal(
    (cancelled.body.subscription as Json).stripe_subscription_id,
    second.id,
    "cancel acts on the active workspace's subscription",
  )
  assert.equal((await stripe.subscriptions.retrieve(personal.subscription.id)).cancel_at_period_end, false)
})

Deno.test('a member who is not the owner is refused every billing call', async () => {
  const owner = await newCustomer('ws-owner')
  await buy(owner, 2)
  const member = await newCustomer('ws-admin')
  const { error } = await serviceDb(env)
    .from('workspace_members')
    .insert({ workspace_id: owner.id, user_id: member.id, role: 'admin' })
  assert.equal(error, null)
  const switched = await member.db.rpc('set_active_workspace', { p_workspace_id: owner.id })
  assert.equal(switched.error, null)

  const refused = { status: 403, body: { error: ROLE_REFUSED } }
  assert.deepEqual(
    await call(member, 'POST', '/api/create-checkout-session', { planType: 'starter' }),
    refused,
  )
  for (const path of ['/billing/portal', '/billing/cancel', '/billing/resume', '/api/subscription/cancel']) {
    assert.deepEqual(await call(member, 'POST', path), refused, path)
  }
  assert.deepEqual(await call(member, 'POST', '/billing/change-preview', { accounts: 3 }), refused)
  assert.deepEqual(await call(member, 'GET', '/invoices/in_anything'), refused)
  const { data: plan } = await member.db.rpc('active_workspace_plan').single()
  assert.equal(plan?.sends, true, "the member still reads the workspace's plan")
})

Deno.test('a subscription without the workspace in its metadata goes to the workspace of its customer', async () => {
  const owner = await newCustomer('ws-customer')
  const client = await createWorkspace(owner, 'Client South')
  const first = await buy(owner, 2)
  assert.equal(first.subscription.metadata.workspaceId, client)
  // Back in the personal workspace, a subscription made at Stripe for the client's customer
  // (a support agent in Stripe's dashboard, say) names no workspace: the customer decides.
  const switched = await owner.db.rpc('set_active_workspace', { p_workspace_id: owner.id })
  assert.equal(switched.error, null)
  const madeAtStripe = {
    ...first.subscription,
    id: `sub_dashboard_${crypto.randomUUID().slice(0, 8)}`,
    metadata: { userId: owner.id },
  } as Stripe.Subscription
  const retrieveOnly = { subscriptions: { retrieve: () => Promise.resolve(madeAtStripe) } }
  const synced = await syncSubscription(
    { stripe: retrieveOnly as unknown as Stripe, service: serviceDb(env) },
    madeAtStripe.id,
  )
  assert.equal(synced?.row.workspace_id, client)
})

/** Waits until the Stripe sandbox has delivered every queued event to the webhook. */
async function drainWebhooks() {
  const response = await fetch(`${env('STRIPE_API_BASE')}/__sandbox/webhooks/drain`, { method: 'POST' })
  assert.equal(response.status, 200, await response.clone().text())
  await response.body?.cancel()
}

Deno.test("a billing notice lands in the subscription's workspace, for its owner only, wherever the buyer works now", async () => {
  const agency = await newCustomer('agency-notice')
  const client = await createWorkspace(agency, 'Client South')
  const { subscription } = await buy(agency, 2)
  await drainWebhooks()
  const back = await agency.db.rpc('set_active_workspace', { p_workspace_id: agency.id })
  assert.equal(back.error, null)

  await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true })
  await drainWebhooks()
  const { data: notices } = await serviceDb(env)
    .from('notifications')
    .select('workspace_id')
    .eq('user_id', agency.id)
    .eq('type', 'subscription_cancel_scheduled')
  assert.deepEqual(
    notices,
    [{ workspace_id: client }],
    "told in the client's workspace, not the personal one",
  )

  const editor = await newCustomer('agency-notice-editor')
  const joined = await serviceDb(env)
    .from('workspace_members')
    .insert({ workspace_id: client, user_id: editor.id, role: 'editor' })
  assert.equal(joined.error, null)
  await serviceDb(env).from('user_profiles').update({ active_workspace_id: client }).eq('id', editor.id)
  const seen = await editor.db.from('notifications').select('type')
  assert.deepEqual(seen.data, [], "an editor sees none of the workspace's billing notices")
  await agency.db.rpc('set_active_workspace', { p_workspace_id: client })
  const owned = await agency.db.from('notifications').select('type')
  const types = new Set(owned.data?.map((n) => n.type))
  assert.ok(
    types.has('subscription_started') && types.has('subscription_cancel_scheduled'),
    'the owner sees them',
  )
})
