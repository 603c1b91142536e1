// Connecting an official X account in-process against the test stack and its X sandbox (which
// serves X API v2 and X's OAuth pages): keys checked with X, the PKCE round trip through X's consent
// page, the account created active with sealed tokens that never come back, one-use state bound to
// the customer and the browser that started it, the cap on starts, Cancel, missing scopes, the plan
// limit (the grant revoked), and disconnect revoking.
import assert from 'node:assert/strict'
import { decryptSecret, keyringFromEnv } from '../_shared/crypto.ts'
import { requireEnv } from '../_shared/env.ts'
import { functionRequest, givePlan, jsonOf, newCustomer, serviceDb, stackEnv } from '../_shared/test-stack.ts'
import { createApiHandler } from './app.ts'
import { defaultDeps } from './deps.ts'
import { X_OFFICIAL_MESSAGES } from './x-official.ts'

const env = stackEnv()
const api = createApiHandler(defaultDeps(env))
const X = requireEnv('X_BASE_URL', env)
const CALLBACK = `${requireEnv('SITE_URL', env).replace(/\/+$/, '')}/connect/x/callback`

interface SandboxAccount {
  id: string
  username: string
  cookieHeader: string
}
interface DevApp {
  clientId: string
  clientSecret: string
}

async function sandbox<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${X}/__sandbox/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`sandbox ${path}: ${response.status} ${await response.text()}`)
  return (await response.json()) as T
}

const newXAccount = () => sandbox<SandboxAccount>('accounts', { passcode: null })
const newDevApp = () => sandbox<DevApp>('x-api/apps', { name: 'Reachflow Test', callbackUrls: [CALLBACK] })

/** The key the web app keeps for the customer's browser, and one of a browser that did not start. */
const BROWSER = 'customers-own-browser-key-0000000000000000'
const OTHER_BROWSER = 'somebody-elses-browser-key-111111111111111'

/** A call as the web app makes it: start and callback carry this browser's key unless told otherwise. */
const call = (token: string, method: string, path: string, body?: unknown) =>
  api(
    functionRequest('api', path, {
      method,
      token,
      body:
        body && typeof body === 'object' && path.includes('/x-official/')
          ? { browserKey: BROWSER, ...body }
          : body,
    }),
  )

/** Start → X's consent page as the signed-in X user → the redirect's code and state. */
async function consent(
  token: string,
  app: DevApp,
  account: SandboxAccount,
  options: { approve?: boolean; scope?: string } = {},
): Promise<Record<string, string>> {
  const started = await call(token, 'POST', '/social-accounts/x-official/start', app)
  assert.equal(started.status, 201, await started.clone().text())
  const { authorizeUrl } = await jsonOf<{ authorizeUrl: string }>(started)
  const url = new URL(authorizeUrl)
  if (options.scope) url.searchParams.set('scope', options.scope)
  const page = await (await fetch(url, { headers: { cookie: account.cookieHeader } })).text()
  const field = (name: string) =>
    (new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? '').replace(/&amp;/g, '&')
  const answer = await fetch(`${X}/i/oauth2/authorize`, {
    method: 'POST',
    headers: { cookie: account.cookieHeader, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      query: field('query'),
      authenticity_token: field('authenticity_token'),
      approve: options.approve === false ? '0' : '1',
    }),
    redirect: 'manual',
  })
  await answer.body?.cancel()
  const back = new URL(answer.headers.get('location') ?? '')
  assert.equal(`${back.origin}${back.pathname}`, CALLBACK)
  return Object.fromEntries(back.searchParams)
}

const liveGrants = async (account: SandboxAccount) =>
  (await sandbox<{ grants: { live: boolean }[] }>(`x-api/grants?account=${account.username}`)).grants.filter(
    (g) => g.live,
  ).length

const usersMe = (accessToken: string) =>
  fetch(`${X}/2/users/me`, { headers: { authorization: `Bearer ${accessToken}` } }).then(async (r) => {
    await r.body?.cancel()
    return r.status
  })

async function storedCredentials(accountId: string) {
  const { data } = await serviceDb(env)
    .from('social_account_credentials')
    .select('ciphertext')
    .eq('account_id', accountId)
    .single()
  return JSON.parse(await decryptSecret(data?.ciphertext ?? '', await keyringFromEnv(env))) as Record<
    string,
    unknown
  >
}

Deno.test('official X: keys are checked with X before the customer is sent there', async () => {
  const customer = await newCustomer('xoff-keys')
  const app = await newDevApp()
  const setup = await jsonOf<{ redirectUri: string }>(
    await call(customer.token, 'GET', '/social-accounts/x-official/setup'),
  )
  assert.equal(setup.redirectUri, CALLBACK)
  const malformed = await call(customer.token, 'POST', '/social-accounts/x-official/start', {
    clientId: 'x',
    clientSecret: app.clientSecret,
  })
  assert.equal(malformed.status, 400)
  assert.equal((await jsonOf(malformed)).error, X_OFFICIAL_MESSAGES.clientId)
  const wrong = await call(customer.token, 'POST', '/social-accounts/x-official/start', {
    clientId: app.clientId,
    clientSecret: `${app.clientSecret.slice(0, -4)}AAAA`,
  })
  assert.equal(wrong.status, 422)
  assert.equal((await jsonOf(wrong)).error, X_OFFICIAL_MESSAGES.keysRejected)
  const started = await call(customer.token, 'POST', '/social-accounts/x-official/start', app)
  const body = await jsonOf<{ authorizeUrl: string }>(started)
  const url = new URL(body.authorizeUrl)
  assert.equal(url.pathname, '/i/oauth2/authorize')
  assert.equal(url.searchParams.get('code_challenge_method'), 'S256')
  assert.equal(url.searchParams.get('scope'), 'dm.read dm.write tweet.read users.read offline.access')
  // the verifier and the secret stay on the server
  assert.ok(!JSON.stringify(body).includes(app.clientSecret))
})

Deno.test('official X: at most 5 starts per customer wait, also when started all at once, and the rest never reach X', async () => {
  const customer = await newCustomer('xoff-cap')
  const app = await newDevApp()
  const starts = await Promise.all(
    Array.from({ length: 8 }, () => call(customer.token, 'POST', '/social-accounts/x-official/start', app)),
  )
  const statuses = starts.map((r) => r.status).sort()
  assert.deepEqual(statuses, [201, 201, 201, 201, 201, 429, 429, 429])
  const refused = starts.find((r) => r.status === 429)
  assert.match(
    String((await jsonOf(refused ?? new Response('{}'))).error),
    /^Too many X connections started\./,
  )
  await Promise.all(starts.filter((r) => r.status !== 429).map((r) => r.body?.cancel()))
  const { count } = await serviceDb(env)
    .from('x_oauth_requests')
    .select('id', { count: 'exact', head: true })
    .eq('user_id', customer.id)
  assert.equal(count, 5)
  // wrong keys count too: each start that reached X is one of the 5
  const other = await newCustomer('xoff-cap-wrong')
  const wrong = { clientId: app.clientId, clientSecret: `${app.clientSecret.slice(0, -4)}AAAA` }
  const tries: number[] = []
  for (let i = 0; i < 7; i++)
    tries.push(
      await call(other.token, 'POST', '/social-accounts/x-official/start', wrong).then(async (r) => {
        await r.body?.cancel()
        return r.status
      }),
    )
  assert.deepEqual(tries, [422, 422, 422, 422, 422, 429, 429])
})

Deno.test('official X: the PKCE round trip creates an active account with sealed tokens; the state works once and only for its customer', async () => {
  const customer = await newCustomer('xoff-connect')
  const other = await newCustomer('xoff-other')
  const app = await newDevApp()
  const xAccount = await newXAccount()
  const back = await consent(customer.token, app, xAccount)
  assert.ok(back.code && back.state)

  // the customer's own session in a browser that did not start it finds nothing (and spends nothing)
  const elsewhere = await call(customer.token, 'POST', '/social-accounts/x-official/callback', {
    ...back,
    browserKey: OTHER_BROWSER,
  })
  assert.equal(elsewhere.status, 400)
  assert.equal((await jsonOf(elsewhere)).error, X_OFFICIAL_MESSAGES.expired)
  // another customer signed in on the starting browser is refused, and the state is spent
  const shared = await consent(customer.token, app, xAccount)
  const stolen = await call(other.token, 'POST', '/social-accounts/x-official/callback', shared)
  assert.equal(stolen.status, 403)
  assert.equal((await jsonOf(stolen)).error, X_OFFICIAL_MESSAGES.otherCustomer)
  const afterStolen = await call(customer.token, 'POST', '/social-accounts/x-official/callback', shared)
  assert.equal((await jsonOf(afterStolen)).error, X_OFFICIAL_MESSAGES.expired)
  assert.equal((await other.db.from('social_accounts').select('id')).data?.length, 0)

  const done = await call(customer.token, 'POST', '/social-accounts/x-official/callback', back)
  const text = await done.text()
  assert.equal(done.status, 201, text)
  const account = JSON.parse(text) as Record<string, unknown>
  assert.equal(account.connection, 'official')
  assert.equal(account.status, 'active')
  assert.equal(account.username, xAccount.username)
  assert.ok(!text.includes(app.clientSecret) && !/access|refresh/i.test(Object.keys(account).join()))

  const row = await serviceDb(env)
    .from('social_accounts')
    .select('platform_user_id')
    .eq('id', String(account.id))
    .single()
  assert.equal(row.data?.platform_user_id, xAccount.id)
  const sealed = await storedCredentials(String(account.id))
  assert.equal(sealed.connection, 'official')
  assert.equal(sealed.clientSecret, app.clientSecret)
  assert.equal(await usersMe(String(sealed.accessToken)), 200)
  assert.ok(Number(sealed.expiresAt) > Date.now() + 7000_000)

  const replay = await call(customer.token, 'POST', '/social-accounts/x-official/callback', back)
  assert.equal(replay.status, 400)
  assert.equal((await jsonOf(replay)).error, X_OFFICIAL_MESSAGES.expired)

  // connecting the same X user again renews the same account
  const again = await call(
    customer.token,
    'POST',
    '/social-accounts/x-official/callback',
    await consent(customer.token, app, xAccount),
  )
  assert.equal(again.status, 200)
  assert.equal((await jsonOf(again)).id, account.id)
  assert.equal(
    await usersMe(String(sealed.accessToken)),
    200,
    'the earlier grant is the customer’s to revoke',
  )

  // its sign-in cannot be edited or tested like a browser account; its limit can change
  const edit = await call(customer.token, 'PATCH', `/social-accounts/${account.id}`, {
    proxyUrl: '203.0.113.10:3128',
  })
  assert.equal(edit.status, 409)
  await edit.body?.cancel()
  const limit = await call(customer.token, 'PATCH', `/social-accounts/${account.id}`, {
    dailyMessageLimit: 30,
  })
  assert.equal((await jsonOf(limit)).daily_message_limit, 30)
  const test = await call(customer.token, 'POST', `/social-accounts/${account.id}/test`)
  assert.equal(test.status, 409)
  await test.body?.cancel()

  const renewed = await storedCredentials(String(account.id))
  const removed = await call(customer.token, 'DELETE', `/social-accounts/${account.id}`)
  assert.deepEqual(await jsonOf(removed), {
    id: account.id,
    deleted: true,
    message: 'Account deleted successfully!',
    revoked: true,
  })
  assert.equal(await usersMe(String(renewed.accessToken)), 401)
})

Deno.test('official X: Cancel on X, missing scopes and the plan limit connect nothing (and leave no live grant)', async () => {
  const customer = await newCustomer('xoff-refusals')
  const app = await newDevApp()
  const xAccount = await newXAccount()

  const denied = await consent(customer.token, app, xAccount, { approve: false })
  assert.equal(denied.error, 'access_denied')
  const cancelled = await call(customer.token, 'POST', '/social-accounts/x-official/callback', denied)
  assert.equal((await jsonOf(cancelled)).error, X_OFFICIAL_MESSAGES.denied)

  const narrow = await consent(customer.token, app, xAccount, {
    scope: 'dm.read tweet.read users.read offline.access',
  })
  const refused = await call(customer.token, 'POST', '/social-accounts/x-official/callback', narrow)
  assert.equal(refused.status, 422)
  assert.equal((await jsonOf(refused)).error, X_OFFICIAL_MESSAGES.scopes(['dm.write']))
  assert.equal(await liveGrants(xAccount), 0)

  // the free plan's one account is taken by a first official account; a second X user is refused
  const first = await call(
    customer.token,
    'POST',
    '/social-accounts/x-official/callback',
    await consent(customer.token, app, xAccount),
  )
  assert.equal(first.status, 201)
  await first.body?.cancel()
  const second = await newXAccount()
  const over = await call(
    customer.token,
    'POST',
    '/social-accounts/x-official/callback',
    await consent(customer.token, app, second),
  )
  assert.equal(over.status, 422)
  assert.match(String((await jsonOf(over)).error), /limited to 1 social media account/)
  const { count } = await serviceDb(env)
    .from('social_accounts')
    .select('id', { count: 'exact', head: true })
    .eq('user_id', customer.id)
  assert.equal(count, 1)
  assert.equal(await liveGrants(second), 0)

  await givePlan(customer, 2)
  const fits = await call(
    customer.token,
    'POST',
    '/social-accounts/x-official/callback',
    await consent(customer.token, app, second),
  )
  assert.equal(fits.status, 201)
  await fits.body?.cancel()
})
