// Connecting through Instagram's OAuth, in-process against the test stack and its Meta sandbox (the
// consent screens are walked as a browser would): the official account with its sealed long-lived
// token, the one-use and expiring state, a denial and a personal account, the plan's limit, one
// workspace per Instagram account, and disconnect removing the webhook subscription.
import assert from 'node:assert/strict'
import { decryptSecret, keyringFromEnv } from '../_shared/crypto.ts'
import { consentInSandbox, metaControl, sandboxInstagramAccount } from '../_shared/meta-sandbox-test.ts'
import { functionRequest, givePlan, jsonOf, newCustomer, serviceDb, stackEnv } from '../_shared/test-stack.ts'
import { createOfficialHandler } from './app.ts'
import { CONNECT_ERRORS } from './connect.ts'
import { defaultDeps, type OfficialDeps } from './deps.ts'

const env = stackEnv()
const DAY = 86_400_000
const control = metaControl
const instagramAccount = sandboxInstagramAccount
const consent = consentInSandbox

async function start(handler: ReturnType<typeof createOfficialHandler>, token: string): Promise<string> {
  const response = await handler(functionRequest('instagram-official', '/connect', { method: 'POST', token }))
  assert.equal(response.status, 200)
  return (await jsonOf<{ url: string }>(response)).url
}

/** Instagram's redirect, handed to the callback as the browser would; the result page's URL. */
async function callback(handler: ReturnType<typeof createOfficialHandler>, back: URL): Promise<URL> {
  const response = await handler(functionRequest('instagram-official', `/callback${back.search}`))
  assert.equal(response.status, 303)
  return new URL(response.headers.get('location') ?? '')
}

async function connectAs(
  customer: { token: string },
  ig: { username: string; password: string },
  deps?: OfficialDeps,
) {
  const handler = createOfficialHandler(deps ?? defaultDeps(env))
  const url = await start(handler, customer.token)
  return { result: await callback(handler, await consent(url, ig.username, ig.password)), handler, url }
}

Deno.test('connecting adds an active official account with a sealed 60-day token and subscribes it', async () => {
  const customer = await newCustomer('ig-official')
  const ig = await instagramAccount()
  const { result, handler } = await connectAs(customer, ig)
  assert.equal(result.pathname, '/dashboard')
  assert.equal(result.searchParams.get('tab'), 'social-accounts')
  assert.equal(result.searchParams.get('instagram'), 'connected')
  assert.equal(result.searchParams.get('username'), ig.username)

  const { data: rows } = await customer.db
    .from('social_accounts')
    .select('id, username, connection, status, platform_user_id, warmup_phase')
  assert.equal(rows?.length, 1)
  const account = rows?.[0]
  assert.deepEqual(
    {
      username: account?.username,
      connection: account?.connection,
      status: account?.status,
      platformUserId: account?.platform_user_id,
    },
    { username: ig.username, connection: 'official', status: 'active', platformUserId: ig.id },
  )
  // the customer can never read the seal; the service role opens it to the token
  const own = await customer.db.from('social_account_credentials').select('ciphertext')
  assert.ok(own.error || (own.data ?? []).length === 0)
  const { data: sealed } = await serviceDb()
    .from('social_account_credentials')
    .select('ciphertext, token_expires_at')
    .eq('account_id', account?.id ?? '')
    .single()
  const opened = JSON.parse(await decryptSecret(sealed?.ciphertext ?? '', await keyringFromEnv(env)))
  assert.equal(opened.connection, 'official')
  assert.match(opened.accessToken, /^IGAA/)
  const lifetime = new Date(sealed?.token_expires_at ?? 0).getTime() - Date.now()
  assert.ok(lifetime > 59 * DAY && lifetime <= 60 * DAY + 60_000, `token lifetime ${lifetime}`)
  const accounts = await control<{ username: string; subscribed_fields: string[] }[]>('/accounts')
  assert.deepEqual(accounts.find((a) => a.username === ig.username)?.subscribed_fields, [
    'comments',
    'messages',
  ])

  // the same redirect again: its state is used up
  const url = await start(handler, customer.token)
  const back = await consent(url, ig.username, ig.password)
  assert.equal((await callback(handler, back)).searchParams.get('instagram'), 'connected')
  const replay = await callback(handler, back)
  assert.equal(replay.searchParams.get('message'), CONNECT_ERRORS.stateUnknown)

  // disconnect: the subscription goes, then the account and its seal
  const gone = await handler(
    functionRequest('instagram-official', `/accounts/${account?.id}`, {
      method: 'DELETE',
      token: customer.token,
    }),
  )
  assert.equal(gone.status, 200)
  assert.equal((await jsonOf<{ unsubscribed: boolean }>(gone)).unsubscribed, true)
  assert.equal((await customer.db.from('social_accounts').select('id')).data?.length, 0)
  const after = await control<{ username: string; subscribed_fields: string[] }[]>('/accounts')
  assert.deepEqual(after.find((a) => a.username === ig.username)?.subscribed_fields, [])
})

Deno.test('a denial, a personal account, an expired state and a forged state connect nothing', async () => {
  const customer = await newCustomer('ig-refused')
  const ig = await instagramAccount()
  const handler = createOfficialHandler(defaultDeps(env))

  const denied = await callback(
    handler,
    await consent(await start(handler, customer.token), ig.username, ig.password, 'deny'),
  )
  assert.equal(denied.searchParams.get('message'), CONNECT_ERRORS.denied)

  const personal = await instagramAccount('PERSONAL')
  const refused = await callback(
    handler,
    await consent(await start(handler, customer.token), personal.username, personal.password),
  )
  assert.equal(refused.searchParams.get('instagram'), 'error')

  // a state made 11 minutes ago has expired (10 minutes to consent)
  const past = { ...defaultDeps(env), now: () => new Date(Date.now() - 11 * 60_000) }
  const stale = createOfficialHandler(past)
  const old = await consent(await start(stale, customer.token), ig.username, ig.password)
  assert.equal((await callback(handler, old)).searchParams.get('message'), CONNECT_ERRORS.stateUnknown)

  const forged = await callback(handler, new URL(`http://x/?code=AQabc&state=${'A'.repeat(43)}`))
  assert.equal(forged.searchParams.get('message'), CONNECT_ERRORS.stateUnknown)
  assert.equal((await customer.db.from('social_accounts').select('id')).data?.length, 0)

  const anonymous = await handler(functionRequest('instagram-official', '/connect', { method: 'POST' }))
  assert.equal(anonymous.status, 401)
  await anonymous.body?.cancel()
})

Deno.test('the plan limit and one workspace per Instagram account are said on the result page', async () => {
  const first = await newCustomer('ig-limit')
  const ig = await instagramAccount()
  assert.equal((await connectAs(first, ig)).result.searchParams.get('instagram'), 'connected')

  // free plan: one account
  const second = await instagramAccount()
  const limited = (await connectAs(first, second)).result
  assert.equal(limited.searchParams.get('instagram'), 'error')
  assert.match(limited.searchParams.get('message') ?? '', /limited to 1 social media account/)

  const other = await newCustomer('ig-other')
  await givePlan(other, 3)
  const taken = (await connectAs(other, ig)).result
  assert.match(taken.searchParams.get('message') ?? '', /connected to another Reachflow workspace/)
  assert.equal((await other.db.from('social_accounts').select('id')).data?.length, 0)
})
