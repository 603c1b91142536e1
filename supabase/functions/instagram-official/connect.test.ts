// Connecting through Instagram's OAuth, in-process against the test stack and its Meta sandbox (the
// consent screens are walked as a browser would): the official account with its sealed long-lived
// token, the one-use and expiring state bound to the customer and the browser that started it, the
// cap on waiting connects, a denial and a personal account, the plan's limit, one workspace per
// Instagram account, and disconnect removing the webhook subscription.
import assert from 'node:assert/strict'
import { decryptSecret, keyringFromEnv } from '../_shared/crypto.ts'
import { requireEnv } from '../_shared/env.ts'
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

type Handler = ReturnType<typeof createOfficialHandler>

/** The key the web app keeps for the customer's browser, and one of a browser that did not start. */
const BROWSER = 'customers-own-browser-key-0000000000000000'
const OTHER_BROWSER = 'somebody-elses-browser-key-111111111111111'

async function start(handler: Handler, token: string, browserKey = BROWSER): Promise<string> {
  const response = await handler(
    functionRequest('instagram-official', '/connect', { method: 'POST', token, body: { browserKey } }),
  )
  assert.equal(response.status, 200)
  return (await jsonOf<{ url: string }>(response)).url
}

interface Outcome {
  status: number
  username?: string
  error?: string
}

/**
 * Instagram's redirect as a browser follows it: /callback forwards code and state to the web app's
 * page, whose confirm button hands them to /finish with a session and that browser's key.
 */
async function callback(handler: Handler, back: URL, token: string, browserKey = BROWSER): Promise<Outcome> {
  const forwarded = await handler(functionRequest('instagram-official', `/callback${back.search}`))
  assert.equal(forwarded.status, 303)
  const page = new URL(forwarded.headers.get('location') ?? '')
  assert.equal(
    `${page.origin}${page.pathname}`,
    new URL('/connect/instagram/callback', requireEnv('SITE_URL', env)).toString(),
  )
  const finished = await handler(
    functionRequest('instagram-official', '/finish', {
      method: 'POST',
      token,
      body: { ...Object.fromEntries(page.searchParams), browserKey },
    }),
  )
  return { status: finished.status, ...(await jsonOf<{ username?: string; error?: string }>(finished)) }
}

async function connectAs(
  customer: { token: string },
  ig: { username: string; password: string },
  deps?: OfficialDeps,
) {
  const handler = createOfficialHandler(deps ?? defaultDeps(env))
  const url = await start(handler, customer.token)
  return {
    result: await callback(handler, await consent(url, ig.username, ig.password), customer.token),
    handler,
    url,
  }
}

Deno.test('connecting adds an active official account with a sealed 60-day token and subscribes it', async () => {
  const customer = await newCustomer('ig-official')
  const ig = await instagramAccount()
  const { result, handler } = await connectAs(customer, ig)
  assert.deepEqual(result, { status: 200, username: ig.username })

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
  assert.equal((await callback(handler, back, customer.token)).username, ig.username)
  const replay = await callback(handler, back, customer.token)
  assert.deepEqual(replay, { status: 400, error: CONNECT_ERRORS.stateUnknown })

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
    customer.token,
  )
  assert.deepEqual(denied, { status: 400, error: CONNECT_ERRORS.denied })

  const personal = await instagramAccount('PERSONAL')
  const refused = await callback(
    handler,
    await consent(await start(handler, customer.token), personal.username, personal.password),
    customer.token,
  )
  assert.ok(refused.status >= 400 && refused.error, JSON.stringify(refused))

  // a state made 11 minutes ago has expired (10 minutes to consent)
  const past = { ...defaultDeps(env), now: () => new Date(Date.now() - 11 * 60_000) }
  const stale = createOfficialHandler(past)
  const old = await consent(await start(stale, customer.token), ig.username, ig.password)
  assert.equal((await callback(handler, old, customer.token)).error, CONNECT_ERRORS.stateUnknown)

  const forged = await callback(
    handler,
    new URL(`http://x/?code=AQabc&state=${'A'.repeat(43)}`),
    customer.token,
  )
  assert.equal(forged.error, CONNECT_ERRORS.stateUnknown)
  assert.equal((await customer.db.from('social_accounts').select('id')).data?.length, 0)

  const anonymous = await handler(functionRequest('instagram-official', '/connect', { method: 'POST' }))
  assert.equal(anonymous.status, 401)
  await anonymous.body?.cancel()
})

Deno.test('the plan limit and one workspace per Instagram account are said on the result page', async () => {
  const first = await newCustomer('ig-limit')
  const ig = await instagramAccount()
  assert.equal((await connectAs(first, ig)).result.username, ig.username)

  // free plan: one account
  const second = await instagramAccount()
  const limited = (await connectAs(first, second)).result
  assert.equal(limited.status, 422)
  assert.match(limited.error ?? '', /limited to 1 social media account/)

  const other = await newCustomer('ig-other')
  await givePlan(other, 3)
  const taken = (await connectAs(other, ig)).result
  assert.match(taken.error ?? '', /connected to another Reachflow workspace/)
  assert.equal((await other.db.from('social_accounts').select('id')).data?.length, 0)
})

Deno.test('a consent finished in another browser or by another customer connects nothing', async () => {
  const customer = await newCustomer('ig-bound')
  const ig = await instagramAccount()
  const handler = createOfficialHandler(defaultDeps(env))

  // the business presses Allow in its own browser: no session there, so /finish refuses outright
  const passedOn = await consent(await start(handler, customer.token), ig.username, ig.password)
  const forwarded = await handler(functionRequest('instagram-official', `/callback${passedOn.search}`))
  assert.equal(forwarded.status, 303)
  await forwarded.body?.cancel()
  const anonymous = await handler(
    functionRequest('instagram-official', '/finish', {
      method: 'POST',
      body: { ...Object.fromEntries(passedOn.searchParams), browserKey: OTHER_BROWSER },
    }),
  )
  assert.equal(anonymous.status, 401)
  await anonymous.body?.cancel()
  // the customer's own session in a browser that did not start it finds nothing
  assert.deepEqual(await callback(handler, passedOn, customer.token, OTHER_BROWSER), {
    status: 400,
    error: CONNECT_ERRORS.stateUnknown,
  })
  // another customer signed in on the starting browser is refused, and the state is spent
  const intruder = await newCustomer('ig-bound-other')
  assert.deepEqual(await callback(handler, passedOn, intruder.token), {
    status: 403,
    error: CONNECT_ERRORS.otherCustomer,
  })
  assert.equal((await callback(handler, passedOn, customer.token)).error, CONNECT_ERRORS.stateUnknown)
  assert.equal((await customer.db.from('social_accounts').select('id')).data?.length, 0)
  assert.equal((await intruder.db.from('social_accounts').select('id')).data?.length, 0)

  // the browser that started it, signed in as the customer, connects
  const own = await consent(await start(handler, customer.token), ig.username, ig.password)
  assert.deepEqual(await callback(handler, own, customer.token), { status: 200, username: ig.username })
})

Deno.test('at most 5 Instagram connects per customer wait, also when started all at once', async () => {
  const customer = await newCustomer('ig-cap')
  const handler = createOfficialHandler(defaultDeps(env))
  const starts = await Promise.all(
    Array.from({ length: 8 }, () =>
      handler(
        functionRequest('instagram-official', '/connect', {
          method: 'POST',
          token: customer.token,
          body: { browserKey: BROWSER },
        }),
      ),
    ),
  )
  assert.deepEqual(starts.map((r) => r.status).sort(), [200, 200, 200, 200, 200, 429, 429, 429])
  const refused = starts.find((r) => r.status === 429)
  assert.equal(
    (await jsonOf(refused ?? new Response('{}'))).error,
    'Too many Instagram connections started. Wait a few minutes and try again.',
  )
  await Promise.all(starts.filter((r) => r.status !== 429).map((r) => r.body?.cancel()))
})
