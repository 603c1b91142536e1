// The Meta sandbox over HTTP, in-process: the consent screens (login, a personal account refused,
// deny), the code's single use, long-lived tokens and their refresh on the sandbox clock, the Graph
// reads, the Send API's windows and the one private reply per comment, Meta's error shapes and
// usage headers, and webhook deliveries (challenge, signature, retries, redelivery).
import { createHmac } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { json, listening } from '../test-helpers.ts'
import { startMetaSandbox } from './app.ts'

const APP = {
  appId: '990000000000077',
  appSecret: 'test-app-secret',
  redirectUri: 'https://app.example/callback',
}
const SCOPE = 'instagram_business_basic,instagram_business_manage_messages,instagram_business_manage_comments'
const DAY = 86_400_000

let sandbox: Awaited<ReturnType<typeof listening<ReturnType<typeof startMetaSandbox>>>>

/** A stand-in for the app's webhook callback: records deliveries, answers what the test says. */
const hook = {
  server: undefined as unknown as Server,
  url: '',
  received: [] as { body: string; signature: string | undefined }[],
  status: 200,
}

beforeAll(async () => {
  sandbox = await listening(
    startMetaSandbox({
      port: 0,
      appId: APP.appId,
      appSecret: APP.appSecret,
      redirectUris: [APP.redirectUri],
      deliveryTimeoutMs: 2000,
    }),
  )
  hook.server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    if (req.method === 'GET') {
      res.writeHead(url.searchParams.get('hub.verify_token') === 'verify-me' ? 200 : 403)
      return res.end(url.searchParams.get('hub.challenge') ?? '')
    }
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      hook.received.push({
        body: Buffer.concat(chunks).toString(),
        signature: req.headers['x-hub-signature-256'] as string,
      })
      res.writeHead(hook.status)
      res.end()
    })
  }).listen(0, '127.0.0.1')
  await new Promise((r) => hook.server.once('listening', r))
  hook.url = `http://127.0.0.1:${(hook.server.address() as AddressInfo).port}/hook`
})

afterAll(() => {
  sandbox.stop()
  hook.server.close()
})

beforeEach(async () => {
  await control('/reset', {})
  await control('/clock', { offset_ms: 0 })
  hook.received = []
  hook.status = 200
})

async function control<T = Record<string, unknown>>(path: string, body?: unknown) {
  return (await json<T>(sandbox.base, `/__sandbox${path}`, body === undefined ? {} : { body })).body
}

/** Walks the consent screens as a browser would; answers the redirect's location. */
async function consent(
  username: string,
  password: string,
  decision: 'allow' | 'deny' = 'allow',
  state = 's1',
) {
  const query = new URLSearchParams({
    client_id: APP.appId,
    redirect_uri: APP.redirectUri,
    response_type: 'code',
    scope: SCOPE,
    state,
  })
  const login = await fetch(`${sandbox.base}/oauth/authorize/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...Object.fromEntries(query), username, password }),
    redirect: 'manual',
  })
  const cookie = (login.headers.getSetCookie()[0] ?? '').split(';')[0] ?? ''
  const page = await (await fetch(`${sandbox.base}/oauth/authorize?${query}`, { headers: { cookie } })).text()
  const answer = await fetch(`${sandbox.base}/oauth/authorize/consent`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ ...Object.fromEntries(query), decision }),
    redirect: 'manual',
  })
  return {
    page,
    location: answer.headers.get('location') ?? '',
    loginLocation: login.headers.get('location') ?? '',
  }
}

async function exchange(code: string) {
  return json<Record<string, unknown>>(sandbox.base, '/oauth/access_token', {
    form: {
      client_id: APP.appId,
      client_secret: APP.appSecret,
      grant_type: 'authorization_code',
      redirect_uri: APP.redirectUri,
      code,
    },
  })
}

/** A long-lived token of lumen.studio with every messaging and comment scope. */
async function longToken(): Promise<string> {
  const { location } = await consent('lumen.studio', 'lumen-password')
  const code = new URL(location).searchParams.get('code') ?? ''
  const short = (await exchange(code)).body as { data: { access_token: string }[] }
  const long = await json<{ access_token: string }>(
    sandbox.base,
    `/access_token?grant_type=ig_exchange_token&client_secret=${APP.appSecret}&access_token=${short.data[0]?.access_token}`,
  )
  return long.body.access_token
}

const graph = <T = Record<string, unknown>>(token: string, path: string, body?: unknown) =>
  json<T>(sandbox.base, path, {
    headers: { authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { body }),
  })

async function subscribe(token: string) {
  expect((await control<{ ok: boolean }>('/webhook', { url: hook.url, verify_token: 'verify-me' })).ok).toBe(
    true,
  )
  const sub = await graph(token, '/v23.0/me/subscribed_apps?subscribed_fields=comments,messages', {})
  expect(sub.body).toEqual({ success: true })
}

describe('consent and tokens', () => {
  it('logs in, shows the scopes, and redirects with a single-use code and #_', async () => {
    const { page, location } = await consent('lumen.studio', 'lumen-password')
    expect(page).toContain('Access and manage your messages')
    expect(location.startsWith(`${APP.redirectUri}?code=`)).toBe(true)
    expect(location.endsWith('#_')).toBe(true)
    const url = new URL(location)
    expect(url.searchParams.get('state')).toBe('s1')
    const first = await exchange(url.searchParams.get('code') ?? '')
    expect(first.status).toBe(200)
    const data = (first.body as { data: { access_token: string; user_id: string; permissions: string }[] })
      .data[0]
    expect(data?.permissions).toBe(SCOPE)
    const again = await exchange(url.searchParams.get('code') ?? '')
    expect(again.status).toBe(400)
    expect(again.body).toMatchObject({
      error_type: 'OAuthException',
      error_message: 'This authorization code has been used.',
    })
  })

  it('refuses a personal account and passes a denial back as error=access_denied', async () => {
    const personal = await consent('jonas.private', 'jonas-password')
    expect(personal.page).toContain('Switch to a professional account')
    expect(new URL(personal.location).searchParams.get('error')).toBe('access_denied')
    const denied = await consent('lumen.studio', 'lumen-password', 'deny')
    expect(new URL(denied.location).searchParams.get('error_reason')).toBe('user_denied')
    const wrong = await consent('lumen.studio', 'nope')
    expect(new URL(wrong.loginLocation, sandbox.base).searchParams.get('login_error')).toContain(
      'password was incorrect',
    )
  })

  it('rejects an unregistered redirect_uri and a code older than an hour', async () => {
    const bad = await json(
      sandbox.base,
      `/oauth/authorize?client_id=${APP.appId}&redirect_uri=https://evil.example/&response_type=code&scope=${SCOPE}`,
    )
    expect(bad.status).toBe(400)
    const { location } = await consent('lumen.studio', 'lumen-password')
    await control('/clock', { advance_ms: 3_600_001 })
    const late = await exchange(new URL(location).searchParams.get('code') ?? '')
    expect(late.body).toMatchObject({ error_message: 'This authorization code has expired.' })
  })

  it('exchanges for a 60-day token, refreshes it only after 24 hours, and answers 190 once expired', async () => {
    const token = await longToken()
    const me = await graph(token, '/v23.0/me?fields=user_id,username,account_type')
    expect(me.body).toMatchObject({ username: 'lumen.studio', account_type: 'BUSINESS' })
    expect(me.headers.get('x-business-use-case-usage')).toContain('"type":"instagram"')
    const early = await json(
      sandbox.base,
      `/refresh_access_token?grant_type=ig_refresh_token&access_token=${token}`,
    )
    expect(early.status).toBe(400)
    await control('/clock', { advance_ms: DAY + 1000 })
    const fresh = await json<{ access_token: string; expires_in: number }>(
      sandbox.base,
      `/refresh_access_token?grant_type=ig_refresh_token&access_token=${token}`,
    )
    expect(fresh.body.expires_in).toBe(5_184_000)
    await control('/clock', { advance_ms: 60 * DAY })
    const expired = await graph(fresh.body.access_token, '/me')
    expect(expired.status).toBe(400)
    expect(expired.body).toMatchObject({ error: { code: 190, error_subcode: 463, type: 'OAuthException' } })
    expect(typeof (expired.body as { error: { fbtrace_id: string } }).error.fbtrace_id).toBe('string')
  })
})

describe('Graph reads and sends', () => {
  it('lists media with fields and comments on it', async () => {
    const token = await longToken()
    const media = await graph<{ data: { id: string; media_product_type: string }[] }>(
      token,
      '/me/media?fields=id,caption,media_product_type,permalink',
    )
    expect(media.body.data).toHaveLength(3)
    // a story is not in /media: only /stories lists it, and only for its 24 hours
    const story = await control<{ id: string }>('/media', {
      account: 'lumen.studio',
      media_product_type: 'STORY',
    })
    const listed = async (edge: string) =>
      (await graph<{ data: { id: string }[] }>(token, `/me/${edge}?fields=id`)).body.data.map((m) => m.id)
    expect(await listed('media')).not.toContain(story.id)
    expect(await listed('stories')).toEqual([story.id])
    await control('/clock', { advance_ms: DAY + 1000 })
    expect(await listed('stories')).toEqual([])
    const post = media.body.data[0]?.id ?? ''
    await control('/comments', { account: 'lumen.studio', from: 'ana', text: 'GUIDE please', media_id: post })
    const comments = await graph<{ data: { text: string; from: { username: string } }[] }>(
      token,
      `/v23.0/${post}/comments?fields=id,text,from`,
    )
    expect(comments.body.data[0]).toMatchObject({ text: 'GUIDE please', from: { username: 'ana' } })
    const unknown = await graph(token, '/v23.0/123/comments')
    expect(unknown.body).toMatchObject({ error: { code: 100, error_subcode: 33 } })
  })

  it('sends one private reply per comment, within 7 days of it', async () => {
    const token = await longToken()
    const { comment_id } = await control<{ comment_id: string }>('/comments', {
      account: 'lumen.studio',
      from: 'ana',
      text: 'PRICE',
    })
    const first = await graph<{ recipient_id: string; message_id: string }>(token, '/v23.0/me/messages', {
      recipient: { comment_id },
      message: { text: 'Here is the price list' },
    })
    expect(first.status).toBe(200)
    expect(first.body.message_id).toBeTruthy()
    const second = await graph(token, '/v23.0/me/messages', {
      recipient: { comment_id },
      message: { text: 'again' },
    })
    expect(second.body).toMatchObject({ error: { code: 10900 } })
    const old = await control<{ comment_id: string }>('/comments', {
      account: 'lumen.studio',
      from: 'ben',
      text: 'PRICE',
    })
    await control('/clock', { advance_ms: 7 * DAY + 1000 })
    const late = await graph(token, '/me/messages', {
      recipient: { comment_id: old.comment_id },
      message: { text: 'late' },
    })
    expect(late.body).toMatchObject({ error: { code: 10, error_subcode: 2534022 } })
  })

  it('answers a DM only inside the 24-hour window (HUMAN_AGENT: 7 days), and 551 for someone unavailable', async () => {
    const token = await longToken()
    const { sender_id } = await control<{ sender_id: string }>('/messages', {
      account: 'lumen.studio',
      from: 'cleo',
      text: 'hi',
    })
    const inside = await graph(token, '/me/messages', {
      recipient: { id: sender_id },
      message: { text: 'hello' },
    })
    expect(inside.status).toBe(200)
    await control('/clock', { advance_ms: DAY + 1000 })
    const outside = await graph(token, '/me/messages', {
      recipient: { id: sender_id },
      message: { text: 'still there?' },
    })
    expect(outside.body).toMatchObject({
      error: {
        code: 10,
        error_subcode: 2534022,
        message: '(#10) This message is sent outside of allowed window.',
      },
    })
    await control('/app', { human_agent_approved: false })
    const unapproved = await graph(token, '/me/messages', {
      recipient: { id: sender_id },
      message: { text: 'an agent here' },
      messaging_type: 'MESSAGE_TAG',
      tag: 'HUMAN_AGENT',
    })
    expect(unapproved.body).toMatchObject({
      error: { code: 10, message: '(#10) Application does not have permission for this action' },
    })
    await control('/app', { human_agent_approved: true })
    const untyped = await graph(token, '/me/messages', {
      recipient: { id: sender_id },
      message: { text: 'an agent here' },
      tag: 'HUMAN_AGENT',
    })
    expect(untyped.body).toMatchObject({ error: { code: 100 } })
    const agent = await graph(token, '/me/messages', {
      recipient: { id: sender_id },
      message: { text: 'an agent here' },
      messaging_type: 'MESSAGE_TAG',
      tag: 'HUMAN_AGENT',
    })
    expect(agent.status).toBe(200)
    await control('/clock', { advance_ms: 6 * DAY })
    const tooLate = await graph(token, '/me/messages', {
      recipient: { id: sender_id },
      message: { text: 'x' },
      messaging_type: 'MESSAGE_TAG',
      tag: 'HUMAN_AGENT',
    })
    expect(tooLate.body).toMatchObject({ error: { error_subcode: 2534022 } })
    await control('/messages', { account: 'lumen.studio', from: 'cleo', text: 'back' })
    await control('/people/available', { username: 'cleo', available: false })
    const gone = await graph(token, '/me/messages', { recipient: { id: sender_id }, message: { text: 'x' } })
    expect(gone.body).toMatchObject({ error: { code: 551 } })
  })

  it("reads a person's profile only once they wrote to the account (User Profile API)", async () => {
    const token = await longToken()
    const { comment_id } = await control<{ comment_id: string }>('/comments', {
      account: 'lumen.studio',
      from: 'hana',
      text: 'nice',
    })
    const commenter = (
      await control<{ id: string; fromId: string }[]>('/comments?account=lumen.studio')
    ).find((c) => c.id === comment_id)
    const before = await graph(token, `/v23.0/${commenter?.fromId}?fields=name,username`)
    expect(before.body).toMatchObject({
      error: { code: 230, message: '(#230) User consent is required to access user profile' },
    })
    await control('/messages', { account: 'lumen.studio', from: 'hana', text: 'hello' })
    const after = await graph(token, `/v23.0/${commenter?.fromId}?fields=name,username`)
    expect(after.body).toEqual({ id: commenter?.fromId, name: 'hana', username: 'hana' })
    const unknown = await graph(token, '/v23.0/2999999999999999?fields=username')
    expect(unknown.body).toMatchObject({ error: { code: 100, error_subcode: 33 } })
  })

  it('posts a public reply and logs every call without secrets', async () => {
    const token = await longToken()
    const { comment_id } = await control<{ comment_id: string }>('/comments', {
      account: 'lumen.studio',
      from: 'dan',
      text: 'nice',
    })
    const reply = await graph<{ id: string }>(token, `/v23.0/${comment_id}/replies?message=Thanks!`, {})
    expect(reply.body.id).toBeTruthy()
    const calls = await control<{ path: string; status: number }[]>('/calls?account=lumen.studio')
    expect(calls.some((c) => c.path.startsWith(`/v23.0/${comment_id}/replies`) && c.status === 200)).toBe(
      true,
    )
    expect(JSON.stringify(calls)).not.toContain(token)
  })

  it('refuses an account over its hourly call budget with 80002 and the usage header at 100', async () => {
    const token = await longToken()
    sandbox.world.state.callsPerHour = 3
    try {
      for (let i = 0; i < 3; i++) expect((await graph(token, '/me')).status).toBe(200)
      const limited = await graph(token, '/me')
      expect(limited.body).toMatchObject({ error: { code: 80002, is_transient: true } })
      expect(limited.headers.get('x-business-use-case-usage')).toContain('"call_count":100')
    } finally {
      sandbox.world.state.callsPerHour = 4800
    }
  })
})

describe('webhooks', () => {
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25))
    expect(check()).toBe(true)
  }

  it('does not accept a callback that fails the challenge', async () => {
    const result = await control<{ ok: boolean }>('/webhook', { url: hook.url, verify_token: 'wrong' })
    expect(result.ok).toBe(false)
  })

  it('delivers a signed comment change and a DM, and only for subscribed fields', async () => {
    const token = await longToken()
    await control('/comments', { account: 'lumen.studio', from: 'ana', text: 'before subscribing' })
    await subscribe(token)
    await control('/comments', { account: 'lumen.studio', from: 'ana', text: 'GUIDE' })
    await control('/messages', { account: 'lumen.studio', from: 'ana', text: 'hello' })
    await until(() => hook.received.length === 2)
    for (const { body, signature } of hook.received)
      expect(signature).toBe(`sha256=${createHmac('sha256', APP.appSecret).update(body).digest('hex')}`)
    const [comment, dm] = hook.received.map((r) => JSON.parse(r.body))
    expect(comment).toMatchObject({
      object: 'instagram',
      entry: [{ changes: [{ field: 'comments', value: { text: 'GUIDE', from: { username: 'ana' } } }] }],
    })
    expect(dm.entry[0].messaging[0]).toMatchObject({
      message: { text: 'hello' },
      recipient: { id: dm.entry[0].id },
    })
  })

  it('retries a failed delivery on the sandbox clock and redelivers the same body on request', async () => {
    const token = await longToken()
    await subscribe(token)
    hook.status = 500
    const { delivery_id } = await control<{ delivery_id: string }>('/comments', {
      account: 'lumen.studio',
      from: 'eve',
      text: 'GUIDE',
    })
    await until(() => hook.received.length === 2) // the first try and the immediate retry
    hook.status = 200
    await new Promise((r) => setTimeout(r, 100))
    expect(hook.received).toHaveLength(2)
    await control('/clock', { advance_ms: 61_000 })
    await until(() => hook.received.length === 3)
    const redelivered = await control<{ status: number }>(`/deliveries/${delivery_id}/redeliver`, {})
    expect(redelivered.status).toBe(200)
    expect(new Set(hook.received.map((r) => r.body)).size).toBe(1)
    expect(new Set(hook.received.map((r) => r.signature)).size).toBe(1)
  })
})
