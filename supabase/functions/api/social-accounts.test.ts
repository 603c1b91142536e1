// /social-accounts in-process against the test stack: the plan limit (also under a race), sealed
// credentials that never come back, the account.test job, the live cookie check and the account
// test (against a local stand-in for x.com; the X sandbox is used by tests/functions), delete with
// its jobs, and another customer's ids answering 404.
import assert from 'node:assert/strict'
import { sealOfficialInstagram } from '../_shared/credentials.ts'
import { decryptSecret, keyringFromEnv } from '../_shared/crypto.ts'
import { envFrom } from '../_shared/env.ts'
import { authorizeUrl, exchangeCode, instagramConfig, setSubscription } from '../_shared/instagram-api.ts'
import { consentInSandbox, metaControl, sandboxInstagramAccount } from '../_shared/meta-sandbox-test.ts'
import {
  functionRequest,
  givePlan,
  jobsFor,
  jsonOf,
  newCustomer,
  serviceDb,
  stackEnv,
} from '../_shared/test-stack.ts'
import { createApiHandler } from './app.ts'
import { defaultDeps } from './deps.ts'
import { OFFICIAL_NOT_BROWSER, xBaseUrlOf } from './social-accounts.ts'

const GOOD_AUTH = '1'.repeat(40)
const EXPIRED_AUTH = '2'.repeat(40)
const CT0 = 'c0'.repeat(20)
const cookieExport = (auth = GOOD_AUTH) => [
  {
    name: 'auth_token',
    value: auth,
    domain: '.x.com',
    path: '/',
    httpOnly: true,
    secure: true,
    sameSite: 'no_restriction',
    expirationDate: 4102444800,
  },
  {
    name: 'ct0',
    value: CT0,
    domain: '.x.com',
    path: '/',
    secure: true,
    sameSite: 'lax',
    expirationDate: 4102444800,
  },
]

/**
 * Stands in for x.com as of July 2026 (outside the machine; the X sandbox plays it in tests/functions):
 * verify_credentials answers 404 to cookie sessions, /home sends a signed-out session to the login flow.
 */
function startFakeX() {
  const server = Deno.serve({ port: 0, hostname: '127.0.0.1', onListen() {} }, (req) => {
    const url = new URL(req.url)
    const cookie = req.headers.get('cookie') ?? ''
    if (url.pathname !== '/home') return new Response(null, { status: 404 })
    if (cookie.includes(`auth_token=${GOOD_AUTH}`) && cookie.includes(`ct0=${CT0}`))
      return new Response('<!doctype html><div id="react-root"></div>', {
        headers: { 'content-type': 'text/html' },
      })
    return new Response(null, {
      status: 302,
      headers: { location: '/i/flow/login?redirect_after_login=%2Fhome' },
    })
  })
  return { server, url: `http://127.0.0.1:${server.addr.port}` }
}

function api(xUrl: string) {
  const env = stackEnv({ X_BASE_URL: xUrl })
  return createApiHandler({ ...defaultDeps(env) })
}

const xAccount = (username: string, auth = GOOD_AUTH) => ({
  platform: 'twitter',
  username,
  authData: { cookies: cookieExport(auth), chatPasscode: '4321' },
  proxyUrl: 'proxyuser:proxypass@203.0.113.10:3128',
})

Deno.test('creating an X account: stored sealed, never returned, tested by a queued job; the free plan stops at one', async () => {
  const fakeX = startFakeX()
  try {
    const handle = api(fakeX.url)
    const ann = await newCustomer('ann')
    const created = await handle(
      functionRequest('api', '/social-accounts', { token: ann.token, body: xAccount('@ann_x') }),
    )
    assert.equal(created.status, 201)
    const text = await created.text()
    for (const secret of [GOOD_AUTH, CT0, '4321', 'proxypass'])
      assert.ok(!text.includes(secret), `response leaks ${secret}`)
    const account = JSON.parse(text)
    assert.equal(account.username, 'ann_x')
    assert.equal(account.status, 'testing')
    assert.equal(account.platform_name, 'twitter')
    assert.equal(account.has_chat_passcode, true)
    assert.equal(account.proxy, '203.0.113.10:3128')
    assert.equal(account.testQueued, true)

    const { data: stored } = await serviceDb()
      .from('social_account_credentials')
      .select('key_id, ciphertext')
      .eq('account_id', account.id)
      .single()
    assert.equal(stored?.key_id, 'local1')
    const sealed = JSON.parse(await decryptSecret(stored?.ciphertext ?? '', await keyringFromEnv(stackEnv())))
    assert.equal(sealed.platform, 'twitter')
    assert.equal(sealed.chatPasscode, '4321')
    // The proxy's login is sealed with the rest; the table keeps host and port only.
    assert.deepEqual(sealed.proxy, { username: 'proxyuser', password: 'proxypass' })
    const { data: row } = await serviceDb()
      .from('social_accounts')
      .select('proxy_url')
      .eq('id', account.id)
      .single()
    assert.equal(row?.proxy_url, '203.0.113.10:3128')
    const { data: own } = await ann.db.from('social_accounts').select('*').eq('id', account.id).single()
    assert.ok(!JSON.stringify(own).includes('proxypass'), 'the data API never returns the proxy password')
    assert.deepEqual(
      sealed.cookies.map((c: { name: string }) => c.name),
      ['auth_token', 'ct0'],
    )
    const { data: direct, error } = await ann.db.from('social_account_credentials').select('*')
    assert.ok(error || direct?.length === 0, 'the customer cannot read credentials')

    const jobs = await jobsFor('accountId', account.id)
    assert.deepEqual(
      jobs.map((j) => [j.name, j.state]),
      [['account.test', 'created']],
    )

    const second = await handle(
      functionRequest('api', '/social-accounts', { token: ann.token, body: xAccount('ann_second') }),
    )
    assert.equal(second.status, 422)
    assert.deepEqual(await second.json(), {
      error: 'You are currently limited to 1 social media account. Upgrade your plan to add more accounts.',
    })
  } finally {
    await fakeX.server.shutdown()
  }
})

Deno.test('two parallel creates on a 1-account plan: exactly one succeeds', async () => {
  const handle = api('http://127.0.0.1:9')
  const ben = await newCustomer('ben')
  await givePlan(ben, 1, 'active', 'starter')
  const results = await Promise.all(
    ['ben_one', 'ben_two', 'ben_three'].map((name) =>
      handle(functionRequest('api', '/social-accounts', { token: ben.token, body: xAccount(name) })),
    ),
  )
  const statuses = results.map((r) => r.status).sort()
  assert.deepEqual(statuses, [201, 422, 422])
  const refused = await Promise.all(results.filter((r) => r.status === 422).map((r) => jsonOf(r)))
  for (const body of refused) assert.equal(body.error, 'Account limit reached. You have 1/1 accounts.')
  const { data } = await serviceDb().from('social_accounts').select('id').eq('user_id', ben.id)
  assert.equal(data?.length, 1)
})

Deno.test('the live cookie check, and testing a stored account, against X', async () => {
  const fakeX = startFakeX()
  try {
    const handle = api(fakeX.url)
    const cat = await newCustomer('cat')
    await givePlan(cat, 3)
    const valid = await handle(
      functionRequest('api', '/social-accounts/validate-cookies', {
        token: cat.token,
        body: { platform: 'twitter', cookies: cookieExport() },
      }),
    )
    assert.equal(valid.status, 200)
    // not "valid": over HTTP only "not rejected" can be known; the runner's browser test decides
    const validBody = await jsonOf(valid)
    assert.equal(validBody.valid, null)
    assert.equal(validBody.rejected, false)
    assert.match(
      String(validBody.message),
      /^X did not reject these cookies\. Only signing in with them in a browser proves they work/,
    )
    assert.equal(validBody.user, undefined)

    const expired = await handle(
      functionRequest('api', '/social-accounts/validate-cookies', {
        token: cat.token,
        body: { platform: 'twitter', cookies: cookieExport(EXPIRED_AUTH) },
      }),
    )
    assert.equal(expired.status, 422)
    assert.match((await jsonOf(expired)).error as string, /no longer signed in to X/)

    const missing = await handle(
      functionRequest('api', '/social-accounts/validate-cookies', {
        token: cat.token,
        body: { platform: 'twitter', cookies: [cookieExport()[1]] },
      }),
    )
    assert.equal(missing.status, 400)
    assert.match((await jsonOf(missing)).error as string, /auth_token and ct0/)

    const good = await jsonOf(
      await handle(
        functionRequest('api', '/social-accounts', { token: cat.token, body: xAccount('cat_good') }),
      ),
    )
    const tested = await handle(
      functionRequest('api', `/social-accounts/${good.id}/test`, { token: cat.token, method: 'POST' }),
    )
    assert.equal(tested.status, 200)
    const testedBody = await jsonOf(tested)
    // cookies X did not reject are not yet "Active": the runner's full test (session, proxy, X Chat) decides
    assert.match(
      String(testedBody.message),
      /^X did not reject the cookies\. Signing in with them and opening X Chat now/,
    )
    assert.equal(testedBody.status, 'testing')
    assert.equal(testedBody.connected, false)

    await serviceDb()
      .from('social_accounts')
      .update({ status: 'flagged', flag_reason: 'X said 226' })
      .eq('id', String(good.id))
    const held = await jsonOf(
      await handle(
        functionRequest('api', `/social-accounts/${good.id}/test`, { token: cat.token, method: 'POST' }),
      ),
    )
    assert.equal(held.status, 'flagged', "cookies X did not reject do not lift the runner's stop")
    assert.match(String(held.message), /stays flagged until Reachflow resumes it/)
    assert.doesNotMatch(String(held.message), /success/i)

    const bad = await jsonOf(
      await handle(
        functionRequest('api', '/social-accounts', {
          token: cat.token,
          body: xAccount('cat_bad', EXPIRED_AUTH),
        }),
      ),
    )
    const failed = await handle(
      functionRequest('api', `/social-accounts/${bad.id}/test`, { token: cat.token, method: 'POST' }),
    )
    assert.equal(failed.status, 422)
    const { data: row } = await serviceDb()
      .from('social_accounts')
      .select('status, flag_reason')
      .eq('id', String(bad.id))
      .single()
    assert.equal(row?.status, 'error')
    assert.match(row?.flag_reason ?? '', /no longer signed in/)

    const ig = await jsonOf(
      await handle(
        functionRequest('api', '/social-accounts', {
          token: cat.token,
          body: { platform: 'instagram', username: 'cat.ig', authData: { password: 'pw', secretKey: null } },
        }),
      ),
    )
    const queued = await handle(
      functionRequest('api', `/social-accounts/${ig.id}/test`, { token: cat.token, method: 'POST' }),
    )
    assert.equal(queued.status, 202, "Instagram needs the runner's browser: the test is queued")
  } finally {
    await fakeX.server.shutdown()
  }
})

Deno.test("list, delete and another customer's ids", async () => {
  const handle = api('http://127.0.0.1:9')
  const dan = await newCustomer('dan')
  const eve = await newCustomer('eve')
  const account = await jsonOf(
    await handle(functionRequest('api', '/social-accounts', { token: dan.token, body: xAccount('dan_x') })),
  )

  const list = await jsonOf<Record<string, unknown>[]>(
    await handle(functionRequest('api', '/social-accounts', { token: dan.token })),
  )
  assert.equal(list.length, 1)
  assert.deepEqual(
    Object.keys(list[0] ?? {})
      .filter((k) =>
        ['messagesPerDay', 'connectionRequests', 'connected', 'lastSync', 'warmup', 'platform'].includes(k),
      )
      .sort(),
    ['connected', 'connectionRequests', 'lastSync', 'messagesPerDay', 'platform', 'warmup'],
  )
  assert.equal(list[0]?.messagesPerDay, 10, 'a new account is in warm-up phase 1: 10 a day')
  assert.deepEqual(
    await jsonOf(await handle(functionRequest('api', '/social-accounts', { token: eve.token }))),
    [],
  )

  for (const [method, path] of [
    ['DELETE', `/social-accounts/${account.id}`],
    ['POST', `/social-accounts/${account.id}/test`],
  ]) {
    const response = await handle(functionRequest('api', path, { token: eve.token, method }))
    assert.equal(response.status, 404, `${method} ${path} as another customer`)
    assert.equal((await jsonOf(response)).error, 'Account not found')
  }
  assert.equal(
    (
      await handle(
        functionRequest('api', '/social-accounts/not-a-uuid', { token: dan.token, method: 'DELETE' }),
      )
    ).status,
    404,
  )

  const deleted = await handle(
    functionRequest('api', `/social-accounts/${account.id}`, { token: dan.token, method: 'DELETE' }),
  )
  assert.equal(deleted.status, 200)
  assert.equal((await jsonOf(deleted)).message, 'Account deleted successfully!')
  assert.deepEqual(await jobsFor('accountId', account.id as string), [], 'its queued test job is gone')
  const { data: creds } = await serviceDb()
    .from('social_account_credentials')
    .select('account_id')
    .eq('account_id', String(account.id))
  assert.deepEqual(creds, [], 'its credentials are gone')
})

Deno.test('every route needs a signed-in caller', async () => {
  const handle = api('http://127.0.0.1:9')
  for (const [method, path] of [
    ['GET', '/social-accounts'],
    ['POST', '/social-accounts'],
    ['GET', '/user/credits'],
    ['POST', '/api/create-checkout-session'],
  ]) {
    const anonymous = await handle(functionRequest('api', path, { method }))
    assert.equal(anonymous.status, 401)
    const withAnonKey = await handle(
      functionRequest('api', path, { method, token: stackEnv()('SUPABASE_ANON_KEY') }),
    )
    assert.equal(withAnonKey.status, 401)
    assert.equal((await jsonOf(withAnonKey)).error, 'User not authenticated')
  }
})

Deno.test('X_BASE_URL defaults to production X, so a missing secret cannot point at a sandbox', () => {
  assert.equal(xBaseUrlOf(envFrom({})), 'https://x.com')
  assert.equal(xBaseUrlOf(envFrom({ X_BASE_URL: '  ' })), 'https://x.com')
  assert.equal(xBaseUrlOf(envFrom({ X_BASE_URL: 'http://127.0.0.1:54341' })), 'http://127.0.0.1:54341')
})

Deno.test('a proxy on a private, local or metadata address, or a service port, is refused', async () => {
  const fakeX = startFakeX()
  try {
    const env = stackEnv({ X_BASE_URL: fakeX.url })
    // internal.example resolves to the runner's own network; public.example to a public address
    const resolveHost = async (host: string) =>
      host === 'internal.example'
        ? ['203.0.113.20', '10.0.0.7']
        : host === 'public.example'
          ? ['203.0.113.21']
          : []
    const handle = createApiHandler({ ...defaultDeps(env), resolveHost })
    const dee = await newCustomer('dee')
    const refusals: [string, RegExp][] = [
      ['u:p@127.0.0.1:3128', /Proxy 127\.0\.0\.1 points at a private or local address/],
      ['u:p@10.1.2.3:8080', /private or local address/],
      ['169.254.169.254:8080', /private or local address/],
      ['u:p@[::1]:8080', /private or local address/],
      ['u:p@localhost:8080', /private or local address/],
      [
        'u:p@internal.example:8080',
        /Proxy internal\.example points at a private or local address \(10\.0\.0\.7\)/,
      ],
      ['u:p@nowhere.example:8080', /could not be found/],
      ['u:p@203.0.113.10:5432', /Proxy port 5432 is not a proxy port/],
      // read as browsers read them: octal parts, SIIT, 6to4, one-number and short forms
      ['u:p@012.63.0.1:8080', /Proxy 012\.63\.0\.1 points at a private or local address \(10\.63\.0\.1\)/],
      ['u:p@[::ffff:0:127.0.0.1]:8080', /private or local address \(::ffff:0:7f00:1\)/],
      ['u:p@[2002:7f00:1::]:8080', /private or local address/],
      ['u:p@2130706433:8080', /private or local address \(127\.0\.0\.1\)/],
      ['u:p@127.1:8080', /private or local address \(127\.0\.0\.1\)/],
      ['u:p@%31%32%37.0.0.1:8080', /Proxy URL must look like user:pass@host:port/],
    ]
    for (const [proxyUrl, message] of refusals) {
      const response = await handle(
        functionRequest('api', '/social-accounts', {
          token: dee.token,
          body: { ...xAccount(`dee_${refusals.findIndex(([p]) => p === proxyUrl)}`), proxyUrl },
        }),
      )
      assert.equal(response.status, 400, proxyUrl)
      assert.match((await response.json()).error, message, proxyUrl)
    }
    const { data: none } = await serviceDb().from('social_accounts').select('id').eq('user_id', dee.id)
    assert.deepEqual(none, [], 'nothing was stored for a refused proxy')
    const accepted = await handle(
      functionRequest('api', '/social-accounts', {
        token: dee.token,
        body: { ...xAccount('dee_ok'), proxyUrl: 'u:p@public.example:10001' },
      }),
    )
    assert.equal(accepted.status, 201, await accepted.clone().text())
    const created = await accepted.json()
    assert.equal(created.proxy, 'public.example:10001')
    // a public address in another spelling is stored the one way every reader reads alike
    const spelled = await handle(
      functionRequest('api', `/social-accounts/${created.id}`, {
        token: dee.token,
        method: 'PATCH',
        body: { proxyUrl: 'u:p@0313.0.0x71.21:10002' },
      }),
    )
    assert.equal(spelled.status, 200, await spelled.clone().text())
    assert.equal((await spelled.json()).proxy, '203.0.113.21:10002')
  } finally {
    await fakeX.server.shutdown()
  }
})

Deno.test('Edit account: passcode, proxy and limit change without deleting; the account is re-tested', async () => {
  const fakeX = startFakeX()
  try {
    const handle = api(fakeX.url)
    const eve = await newCustomer('eve')
    const created = await handle(
      functionRequest('api', '/social-accounts', { token: eve.token, body: xAccount('eve_x') }),
    )
    assert.equal(created.status, 201)
    const account = await created.json()
    // the runner's test failed for a missing passcode; the customer fixes it in Edit account
    await serviceDb()
      .from('social_accounts')
      .update({ status: 'error', flag_reason: 'X Chat passcode required' })
      .eq('id', account.id)
    const edited = await handle(
      functionRequest('api', `/social-accounts/${account.id}`, {
        token: eve.token,
        method: 'PATCH',
        body: { authData: { chatPasscode: '9876' }, proxyUrl: null, dailyMessageLimit: 80 },
      }),
    )
    assert.equal(edited.status, 200, await edited.clone().text())
    const text = await edited.text()
    assert.ok(!text.includes('9876') && !text.includes('proxypass'), 'nothing secret comes back')
    const view = JSON.parse(text)
    assert.equal(view.status, 'testing')
    assert.equal(view.proxy, null)
    assert.equal(view.daily_message_limit, 80)
    assert.equal(view.testQueued, true)
    const { data: row } = await serviceDb()
      .from('social_accounts')
      .select('flag_reason, has_chat_passcode')
      .eq('id', account.id)
      .single()
    assert.deepEqual(row, { flag_reason: null, has_chat_passcode: true })
    const { data: stored } = await serviceDb()
      .from('social_account_credentials')
      .select('ciphertext, session_ciphertext')
      .eq('account_id', account.id)
      .single()
    const sealed = JSON.parse(await decryptSecret(stored?.ciphertext ?? '', await keyringFromEnv(stackEnv())))
    assert.equal(sealed.chatPasscode, '9876')
    assert.equal(sealed.proxy, null)
    assert.deepEqual(
      sealed.cookies.map((c: { name: string }) => c.name),
      ['auth_token', 'ct0'],
      'cookies not sent are kept',
    )
    assert.equal(stored?.session_ciphertext, null)

    const privateProxy = await handle(
      functionRequest('api', `/social-accounts/${account.id}`, {
        token: eve.token,
        method: 'PATCH',
        body: { proxyUrl: 'u:p@192.168.1.10:3128' },
      }),
    )
    assert.equal(privateProxy.status, 400)
    assert.match((await privateProxy.json()).error, /private or local address/)
    const stranger = await newCustomer('mallory')
    const foreign = await handle(
      functionRequest('api', `/social-accounts/${account.id}`, {
        token: stranger.token,
        method: 'PATCH',
        body: { dailyMessageLimit: 5 },
      }),
    )
    assert.equal(foreign.status, 404)
  } finally {
    await fakeX.server.shutdown()
  }
})

Deno.test('an official account has no browser sign-in to test or edit: both are refused and its seal stays', async () => {
  const customer = await newCustomer('official-guard')
  const sealed = await sealOfficialInstagram(
    {
      v: 1,
      platform: 'instagram',
      connection: 'official',
      accessToken: 'IGAAtoken',
      expiresAt: new Date(Date.now() + 86_400_000 * 60).toISOString(),
      permissions: [],
      instagramUserId: `1784${Date.now()}`,
    },
    await keyringFromEnv(stackEnv()),
  )
  const { data, error } = await serviceDb().rpc('create_instagram_official_account', {
    p_user_id: customer.id,
    p_username: 'official_guard',
    p_platform_user_id: `1784${Date.now()}`,
    p_credentials_key_id: sealed.keyId,
    p_credentials: sealed.ciphertext,
    p_token_expires_at: new Date(Date.now() + 86_400_000 * 60).toISOString(),
  })
  assert.equal(error, null)
  const id = (data as { id: string }).id
  const call = api('http://127.0.0.1:9')
  const tested = await call(
    functionRequest('api', `/social-accounts/${id}/test`, { method: 'POST', token: customer.token }),
  )
  assert.equal(tested.status, 409)
  assert.equal((await jsonOf(tested)).error, OFFICIAL_NOT_BROWSER)
  const edited = await call(
    functionRequest('api', `/social-accounts/${id}`, {
      method: 'PATCH',
      token: customer.token,
      body: { authData: { password: 'a-password' } },
    }),
  )
  assert.equal(edited.status, 409)
  await edited.body?.cancel()
  const { data: row } = await serviceDb()
    .from('social_account_credentials')
    .select('ciphertext')
    .eq('account_id', id)
    .single()
  assert.equal(row?.ciphertext, sealed.ciphertext)
  assert.equal((await jobsFor('accountId', id)).length, 0)
})

Deno.test("deleting an official Instagram account unsubscribes it from Meta's webhooks first", async () => {
  const env = stackEnv()
  const config = instagramConfig(env)
  const ig = await sandboxInstagramAccount()
  const back = await consentInSandbox(authorizeUrl(config, 'delete-test'), ig.username, ig.password)
  const token = await exchangeCode(config, back.searchParams.get('code') ?? '', fetch, new Date())
  await setSubscription(config, token.accessToken, true, fetch)
  const customer = await newCustomer('official-delete')
  const sealed = await sealOfficialInstagram(
    {
      v: 1,
      platform: 'instagram',
      connection: 'official',
      accessToken: token.accessToken,
      expiresAt: token.expiresAt.toISOString(),
      permissions: token.permissions,
      instagramUserId: ig.id,
    },
    await keyringFromEnv(env),
  )
  const { data } = await serviceDb().rpc('create_instagram_official_account', {
    p_user_id: customer.id,
    p_username: ig.username,
    p_platform_user_id: ig.id,
    p_credentials_key_id: sealed.keyId,
    p_credentials: sealed.ciphertext,
    p_token_expires_at: token.expiresAt.toISOString(),
  })
  const id = (data as { id: string }).id
  const subscribed = async () =>
    (await metaControl<{ username: string; subscribed_fields: string[] }[]>('/accounts')).find(
      (a) => a.username === ig.username,
    )?.subscribed_fields
  assert.deepEqual(await subscribed(), ['comments', 'messages'])
  const deleted = await api('http://127.0.0.1:9')(
    functionRequest('api', `/social-accounts/${id}`, { method: 'DELETE', token: customer.token }),
  )
  assert.equal(deleted.status, 200)
  await deleted.body?.cancel()
  assert.deepEqual(await subscribed(), [])
  assert.equal((await customer.db.from('social_accounts').select('id')).data?.length, 0)
})
