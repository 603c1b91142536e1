// X API v2 in the X sandbox, in-process: OAuth 2.0 with PKCE through the developer app (login,
// consent, deny, one-use codes, verifier check, rotating refresh tokens, expiry, revocation), the
// users lookups, DMs on the same world the browser path uses (a lead found by scraping messaged
// through the API, a reply visible as a DM event), X's refusals and per-user rate limits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { json, listening } from '../test-helpers.ts'
import { startXSandbox } from './app.ts'
import { basicAuth, connectWithOAuth, consentForm, type TestAccount, type TestApp } from './test-support.ts'

type App = Awaited<ReturnType<typeof start>>
const start = () => listening(startXSandbox({ port: 0 }))
let app: App
let devApp: TestApp

const CALLBACK = 'http://127.0.0.1:9/x/callback'
const newAccount = async (body: Record<string, unknown> = {}) =>
  (await json<TestAccount>(app.base, '/__sandbox/accounts', { body: { passcode: null, ...body } })).body
const profile = async (query: string) =>
  (
    await json<{ profiles: { id: string; username: string }[] }>(
      app.base,
      `/__sandbox/profiles?${query}&limit=1`,
    )
  ).body.profiles[0] as { id: string; username: string }
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const tokenCall = (form: Record<string, string>, auth = basicAuth(devApp)) =>
  json<Record<string, string>>(app.base, '/2/oauth2/token', { form, headers: { authorization: auth } })

beforeAll(async () => {
  app = await start()
  devApp = (
    await json<TestApp>(app.base, '/__sandbox/x-api/apps', {
      body: { name: 'Reachflow', callbackUrls: [CALLBACK] },
    })
  ).body
})
afterAll(() => app.stop())

describe('X API v2 OAuth 2.0 with PKCE', () => {
  const authorizeQuery = (overrides: Record<string, string> = {}) =>
    new URLSearchParams({
      response_type: 'code',
      client_id: devApp.clientId,
      redirect_uri: CALLBACK,
      scope: 'dm.read dm.write tweet.read users.read offline.access',
      state: 'xyz',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      ...overrides,
    })

  it('sends a signed-out visitor to the X login, and never redirects to an unregistered callback', async () => {
    const signedOut = await fetch(`${app.base}/i/oauth2/authorize?${authorizeQuery()}`, {
      redirect: 'manual',
    })
    expect(signedOut.status).toBe(302)
    expect(signedOut.headers.get('location')).toMatch(
      /^\/i\/flow\/login\?redirect_after_login=%2Fi%2Foauth2%2Fauthorize/,
    )
    const account = await newAccount()
    for (const bad of <Record<string, string>[]>[
      { redirect_uri: 'http://evil.example/cb' },
      { client_id: 'nope' },
      { code_challenge: '' },
      { scope: 'dm.read root' },
    ]) {
      const answer = await fetch(`${app.base}/i/oauth2/authorize?${authorizeQuery(bad)}`, {
        headers: { cookie: account.cookieHeader },
        redirect: 'manual',
      })
      expect(answer.status).toBe(400)
      expect(await answer.text()).toContain("You weren't able to give access to the App.")
    }
  })

  it('shows the consent page; Cancel answers access_denied with the state; a forged form is refused', async () => {
    const account = await newAccount({ username: 'consent_user' })
    const page = await fetch(`${app.base}/i/oauth2/authorize?${authorizeQuery()}`, {
      headers: { cookie: account.cookieHeader },
    })
    const html = await page.text()
    expect(html).toContain('Reachflow wants to access your X account.')
    expect(html).toContain('@consent_user')
    const form = consentForm(html)
    const post = (body: Record<string, string>, cookie = account.cookieHeader) =>
      fetch(`${app.base}/i/oauth2/authorize`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(body),
        redirect: 'manual',
      })
    const denied = new URL((await post({ ...form, approve: '0' })).headers.get('location') ?? '')
    expect(`${denied.origin}${denied.pathname}`).toBe(CALLBACK)
    expect(Object.fromEntries(denied.searchParams)).toEqual({ error: 'access_denied', state: 'xyz' })
    // the form is bound to the session that saw it
    const other = await newAccount()
    expect((await post({ ...form, approve: '1' }, other.cookieHeader)).status).toBe(403)
    const approved = new URL((await post({ ...form, approve: '1' })).headers.get('location') ?? '')
    expect(approved.searchParams.get('state')).toBe('xyz')
    expect(approved.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{40,}$/)
  })

  it('exchanges a code once, only with Basic auth and the right verifier', async () => {
    const account = await newAccount()
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'
    const query = authorizeQuery({ code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM' })
    const codeFor = async () => {
      const html = await (
        await fetch(`${app.base}/i/oauth2/authorize?${query}`, { headers: { cookie: account.cookieHeader } })
      ).text()
      const answer = await fetch(`${app.base}/i/oauth2/authorize`, {
        method: 'POST',
        headers: { cookie: account.cookieHeader, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...consentForm(html), approve: '1' }),
        redirect: 'manual',
      })
      return new URL(answer.headers.get('location') ?? '').searchParams.get('code') ?? ''
    }
    const exchange = (code: string, codeVerifier = verifier, auth?: string) =>
      tokenCall(
        { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: codeVerifier },
        auth,
      )

    const code = await codeFor()
    expect(await exchange(code, verifier, 'Basic Zm9vOmJhcg==')).toMatchObject({
      status: 401,
      body: { error: 'unauthorized_client' },
    })
    // the failed call above did not reach the code; a wrong verifier does, and burns it
    expect(await exchange(code, `${verifier}x`)).toMatchObject({
      status: 400,
      body: {
        error: 'invalid_request',
        error_description: 'Value passed for the authorization code was invalid.',
      },
    })
    expect((await exchange(code)).status).toBe(400)

    const fresh = await codeFor()
    const tokens = await exchange(fresh)
    expect(tokens.status).toBe(200)
    expect(tokens.body).toMatchObject({
      token_type: 'bearer',
      expires_in: 7200,
      scope: 'dm.read dm.write tweet.read users.read offline.access',
    })
    expect(tokens.body.refresh_token).toBeTruthy()
    expect((await exchange(fresh)).status).toBe(400)

    // a code lives 30 seconds
    const late = await codeFor()
    await json(app.base, '/__sandbox/clock', { body: { advanceMs: 31_000 } })
    expect((await exchange(late)).status).toBe(400)
  })

  it('gives a refresh token only with offline.access', async () => {
    const tokens = await connectWithOAuth(
      app.base,
      await newAccount(),
      devApp,
      'dm.read tweet.read users.read',
    )
    expect(tokens.refresh_token).toBeUndefined()
    expect(tokens.scope).toBe('dm.read tweet.read users.read')
  })

  it('rotates refresh tokens, expires access tokens after 2 hours, and revokes', async () => {
    const account = await newAccount()
    const first = await connectWithOAuth(app.base, account, devApp)
    const me = async (token: string) => json(app.base, '/2/users/me', { headers: bearer(token) })
    expect((await me(first.access_token)).body).toEqual({
      data: { id: account.id, name: account.username, username: account.username },
    })

    const refreshed = await tokenCall({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token ?? '',
    })
    expect(refreshed.status).toBe(200)
    expect(refreshed.body.refresh_token).not.toBe(first.refresh_token)
    // the used refresh token never works again
    expect(
      await tokenCall({ grant_type: 'refresh_token', refresh_token: first.refresh_token ?? '' }),
    ).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: 'Value passed for the token was invalid.' },
    })

    await json(app.base, '/__sandbox/clock', { body: { advanceMs: 7_201_000 } })
    expect(await me(refreshed.body.access_token ?? '')).toMatchObject({
      status: 401,
      body: { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' },
    })
    const again = await tokenCall({
      grant_type: 'refresh_token',
      refresh_token: refreshed.body.refresh_token ?? '',
    })
    expect((await me(again.body.access_token ?? '')).status).toBe(200)

    const revoke = await json(app.base, '/2/oauth2/revoke', {
      form: { token: again.body.access_token ?? '', token_type_hint: 'access_token' },
      headers: { authorization: basicAuth(devApp) },
    })
    expect(revoke).toMatchObject({ status: 200, body: { revoked: true } })
    expect((await me(again.body.access_token ?? '')).status).toBe(401)
    expect(
      (await tokenCall({ grant_type: 'refresh_token', refresh_token: again.body.refresh_token ?? '' }))
        .status,
    ).toBe(400)
  })
})

describe('X API v2 users and Direct Messages', () => {
  it('looks users up by id and username, with X not-found errors and receives_your_dm', async () => {
    const account = await newAccount()
    const { access_token } = await connectWithOAuth(app.base, account, devApp)
    const open = await profile('canDm=true&verifiedOnlyRequests=false')
    const closed = await profile('canDm=false')
    const byName = await json<{ data: Record<string, unknown> }>(
      app.base,
      `/2/users/by/username/${open.username}?user.fields=receives_your_dm,public_metrics`,
      { headers: bearer(access_token) },
    )
    expect(byName.body.data).toMatchObject({ id: open.id, username: open.username, receives_your_dm: true })
    expect(byName.headers.get('x-rate-limit-limit')).toBe('900')
    const byId = await json<{ data: Record<string, unknown> }>(
      app.base,
      `/2/users/${closed.id}?user.fields=receives_your_dm`,
      {
        headers: bearer(access_token),
      },
    )
    expect(byId.body.data.receives_your_dm).toBe(false)
    const missing = await json(app.base, '/2/users/by/username/nobody_here_123', {
      headers: bearer(access_token),
    })
    expect(missing).toMatchObject({
      status: 200,
      body: {
        errors: [
          { title: 'Not Found Error', detail: 'Could not find user with username: [nobody_here_123].' },
        ],
      },
    })
    expect(
      (await json(app.base, '/2/users/me?user.fields=bogus', { headers: bearer(access_token) })).status,
    ).toBe(400)
  })

  it('messages a lead through the API on the browser path world; the reply is a DM event', async () => {
    const account = await newAccount({ username: 'api_sender' })
    const { access_token } = await connectWithOAuth(app.base, account, devApp)
    const lead = await profile('canDm=true&verifiedOnlyRequests=false')
    const sent = await json<{ data: { dm_conversation_id: string; dm_event_id: string } }>(
      app.base,
      `/2/dm_conversations/with/${lead.id}/messages`,
      { body: { text: 'Hello from the API' }, headers: bearer(access_token) },
    )
    expect(sent.status).toBe(201)
    const conversation = [account.id, lead.id].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)).join('-')
    expect(sent.body.data).toEqual({
      dm_conversation_id: conversation,
      dm_event_id: expect.stringMatching(/^\d+$/),
    })
    expect(sent.headers.get('x-rate-limit-limit')).toBe('200')
    expect(sent.headers.get('x-user-limit-24hour-limit')).toBe('1000')
    const deliveries = await json<{ deliveries: { recipientUsername: string; text: string }[] }>(
      app.base,
      '/__sandbox/deliveries?account=api_sender',
    )
    expect(deliveries.body.deliveries).toEqual([
      expect.objectContaining({ recipientUsername: lead.username, text: 'Hello from the API' }),
    ])

    await json(app.base, '/__sandbox/messages', {
      body: { account: 'api_sender', from: lead.username, text: 'Tell me more' },
    })
    const events = await json<{ data: Record<string, unknown>[]; meta: Record<string, unknown> }>(
      app.base,
      `/2/dm_conversations/with/${lead.id}/dm_events?dm_event.fields=id,text,sender_id,created_at,dm_conversation_id&event_types=MessageCreate`,
      { headers: bearer(access_token) },
    )
    expect(events.body.data.map((e) => [e.sender_id, e.text])).toEqual([
      [lead.id, 'Tell me more'],
      [account.id, 'Hello from the API'],
    ])
    expect(events.body.data[1]).toMatchObject({
      id: sent.body.data.dm_event_id,
      event_type: 'MessageCreate',
      dm_conversation_id: conversation,
    })
    const expanded = await json<{ includes: { users: { id: string; username: string }[] } }>(
      app.base,
      '/2/dm_events?expansions=sender_id',
      { headers: bearer(access_token) },
    )
    expect(expanded.body.includes.users.map((u) => u.username).sort()).toEqual(
      ['api_sender', lead.username].sort(),
    )
    // default fields only: id, event_type, text
    const plain = await json<{ data: Record<string, unknown>[] }>(app.base, '/2/dm_events', {
      headers: bearer(access_token),
    })
    expect(Object.keys(plain.body.data[0] ?? {}).sort()).toEqual(['event_type', 'id', 'text'])
  })

  it('pages DM events with next_token, stable while new messages arrive', async () => {
    const account = await newAccount()
    const { access_token } = await connectWithOAuth(app.base, account, devApp)
    const lead = await profile('canDm=true&verifiedOnlyRequests=false&offset=3')
    for (const text of ['one', 'two', 'three']) {
      await json(app.base, `/2/dm_conversations/with/${lead.id}/messages`, {
        body: { text },
        headers: bearer(access_token),
      })
      await json(app.base, '/__sandbox/clock', { body: { advanceMs: 1000 } })
    }
    const page = (token?: string) =>
      json<{ data?: { text: string }[]; meta: { result_count: number; next_token?: string } }>(
        app.base,
        `/2/dm_events?max_results=2${token ? `&pagination_token=${token}` : ''}`,
        { headers: bearer(access_token) },
      )
    const first = await page()
    expect(first.body.data?.map((e) => e.text)).toEqual(['three', 'two'])
    await json(app.base, `/2/dm_conversations/with/${lead.id}/messages`, {
      body: { text: 'four' },
      headers: bearer(access_token),
    })
    const second = await page(first.body.meta.next_token)
    expect(second.body).toEqual({
      data: [expect.objectContaining({ text: 'one' })],
      meta: { result_count: 1 },
    })
    expect((await page('garbage')).status).toBe(400)
  })

  it('refuses as X does: DM settings, verified-only requests, unknown users, missing scopes', async () => {
    const account = await newAccount()
    const { access_token } = await connectWithOAuth(app.base, account, devApp)
    const dm = (id: string, token = access_token) =>
      json(app.base, `/2/dm_conversations/with/${id}/messages`, {
        body: { text: 'hi' },
        headers: bearer(token),
      })
    expect(await dm((await profile('canDm=false')).id)).toMatchObject({
      status: 403,
      body: { title: 'Forbidden', status: 403, detail: 'You cannot send messages to this user.' },
    })
    expect(await dm((await profile('canDm=true&verifiedOnlyRequests=true')).id)).toMatchObject({
      status: 403,
      body: { detail: expect.stringContaining('only accept message requests from verified accounts') },
    })
    expect(await dm('999')).toMatchObject({ status: 400, body: { title: 'Invalid Request' } })
    const readOnly = await connectWithOAuth(app.base, account, devApp, 'dm.read tweet.read users.read')
    expect(
      (await dm((await profile('canDm=true&verifiedOnlyRequests=false')).id, readOnly.access_token)).status,
    ).toBe(403)
    expect((await dm('1', 'not-a-token')).status).toBe(401)
  })

  it('limits per endpoint per user with x-rate-limit headers and 429 until the window resets', async () => {
    await json(app.base, '/__sandbox/x-api/limits', { method: 'PATCH', body: { dm_send: 2 } })
    try {
      const account = await newAccount()
      const other = await newAccount()
      const { access_token } = await connectWithOAuth(app.base, account, devApp)
      const otherToken = (await connectWithOAuth(app.base, other, devApp)).access_token
      const lead = await profile('canDm=true&verifiedOnlyRequests=false&offset=7')
      const dm = (token: string, text: string) =>
        json(app.base, `/2/dm_conversations/with/${lead.id}/messages`, {
          body: { text },
          headers: bearer(token),
        })
      expect((await dm(access_token, 'a')).headers.get('x-rate-limit-remaining')).toBe('1')
      expect((await dm(access_token, 'b')).headers.get('x-rate-limit-remaining')).toBe('0')
      const limited = await dm(access_token, 'c')
      expect(limited).toMatchObject({ status: 429, body: { title: 'Too Many Requests', status: 429 } })
      const { now } = (await json<{ now: number }>(app.base, '/__sandbox/clock')).body
      const reset = Number(limited.headers.get('x-rate-limit-reset'))
      expect(reset * 1000).toBeGreaterThan(now)
      expect(reset * 1000).toBeLessThanOrEqual(now + 15 * 60_000 + 1000)
      // another user of the same app has a window of their own
      expect((await dm(otherToken, 'd')).status).toBe(201)
      await json(app.base, '/__sandbox/clock', { body: { offsetMs: reset * 1000 - Date.now() + 1000 } })
      expect((await dm(access_token, 'e')).status).toBe(201)
      expect((await json(app.base, `/__sandbox/deliveries?account=${account.username}`)).body).toMatchObject({
        count: 3,
      })
    } finally {
      await json(app.base, '/__sandbox/x-api/limits', { method: 'DELETE' })
    }
  })

  it('limits DM sends per app across its users for 24 hours, with x-app-limit-24hour headers', async () => {
    await json(app.base, '/__sandbox/x-api/limits', { method: 'PATCH', body: { dm_send_app_daily: 2 } })
    try {
      const first = (await connectWithOAuth(app.base, await newAccount(), devApp)).access_token
      const second = (await connectWithOAuth(app.base, await newAccount(), devApp)).access_token
      const otherApp = (
        await json<TestApp>(app.base, '/__sandbox/x-api/apps', {
          body: { name: 'Another tool', callbackUrls: [CALLBACK] },
        })
      ).body
      const elsewhere = (await connectWithOAuth(app.base, await newAccount(), otherApp)).access_token
      const lead = await profile('canDm=true&verifiedOnlyRequests=false&offset=11')
      const dm = (token: string, text: string) =>
        json(app.base, `/2/dm_conversations/with/${lead.id}/messages`, {
          body: { text },
          headers: bearer(token),
        })
      expect((await dm(first, 'a')).headers.get('x-app-limit-24hour-remaining')).toBe('1')
      expect((await dm(second, 'b')).headers.get('x-app-limit-24hour-remaining')).toBe('0')
      // the app's day is spent for every one of its users, each with a 15-minute window to spare
      const limited = await dm(first, 'c')
      expect(limited).toMatchObject({ status: 429, body: { title: 'Too Many Requests' } })
      expect(limited.headers.get('x-rate-limit-remaining')).not.toBe('0')
      const { now } = (await json<{ now: number }>(app.base, '/__sandbox/clock')).body
      const reset = Number(limited.headers.get('x-app-limit-24hour-reset')) * 1000
      expect(reset).toBeGreaterThan(now + 23 * 3_600_000)
      expect(reset).toBeLessThanOrEqual(now + 24 * 3_600_000 + 1000)
      // another developer app has its own day
      expect((await dm(elsewhere, 'd')).status).toBe(201)
    } finally {
      await json(app.base, '/__sandbox/x-api/limits', { method: 'DELETE' })
    }
  })

  it('answers send faults as the API would: a coded refusal, 503, and an account-scoped 429 on any /2/ path', async () => {
    const account = await newAccount({ username: 'fault_api' })
    const { access_token } = await connectWithOAuth(app.base, account, devApp)
    const lead = await profile('canDm=true&verifiedOnlyRequests=false&offset=9')
    const dm = () =>
      json(app.base, `/2/dm_conversations/with/${lead.id}/messages`, {
        body: { text: 'x' },
        headers: bearer(access_token),
      })
    await json(app.base, '/__sandbox/faults', {
      body: { account: 'fault_api', target: 'send', mode: 'error', code: 349 },
    })
    expect(await dm()).toMatchObject({
      status: 403,
      body: { detail: 'You cannot send messages to this user.' },
    })
    await json(app.base, '/__sandbox/faults', {
      body: { account: 'fault_api', target: 'api', mode: 'error', code: 429, path: '/2/dm_events' },
    })
    const limited = await json(app.base, '/2/dm_events', { headers: bearer(access_token) })
    expect(limited).toMatchObject({ status: 429, body: { title: 'Too Many Requests' } })
    expect(limited.headers.get('x-rate-limit-remaining')).toBe('0')
    expect((await dm()).status).toBe(201)
  })
})
