// The X sandbox over HTTP, in-process: demo accounts, cookie/csrf/bearer checks, redirects of
// expired and locked sessions, GraphQL paging and rate limits, DM sends with every refusal, the
// passcode lock, the delivery log, replies on the test clock, and state surviving a restart.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { json, listening } from '../test-helpers.ts'
import { conversationId, WEB_BEARER } from './accounts.ts'
import { startXSandbox } from './app.ts'

type App = Awaited<ReturnType<typeof start>>
const start = (stateFile?: string) => listening(startXSandbox({ port: 0, stateFile }))
let app: App

interface Account {
  id: string
  username: string
  cookieHeader: string
}

const ct0Of = (account: Account) => /ct0=([0-9a-f]+)/.exec(account.cookieHeader)?.[1] ?? ''
const auth = (account: Account) => ({
  cookie: account.cookieHeader,
  'x-csrf-token': ct0Of(account),
  authorization: `Bearer ${WEB_BEARER}`,
})
const newAccount = async (body: Record<string, unknown> = {}) =>
  (await json<Account>(app.base, '/__sandbox/accounts', { body: { passcode: null, ...body } })).body
const send = (account: Account, peerId: string, text: string, requestId?: string) =>
  json<{ event?: { id: string }; errors?: { code: number; message: string }[] }>(
    app.base,
    '/i/api/1.1/dm/new2.json',
    {
      headers: auth(account),
      body: {
        conversation_id: conversationId(account.id, peerId),
        text,
        ...(requestId ? { request_id: requestId } : {}),
      },
    },
  )
const profiles = async (query: string) =>
  (
    await json<{ profiles: { id: string; username: string; followers: number }[] }>(
      app.base,
      `/__sandbox/profiles?${query}`,
    )
  ).body.profiles

beforeAll(async () => {
  app = await start()
})
afterAll(() => {
  app.stop()
})

describe('X sandbox accounts and sessions', () => {
  it('has the documented demo accounts with fixed cookies and passcode 1234', async () => {
    const demo = (
      await json<Account & { passcode: string; state: string }>(
        app.base,
        '/__sandbox/accounts/reachflow_demo',
      )
    ).body
    expect(demo.cookieHeader).toContain('auth_token=e6e526c0814857148cc1f15afe37ff9c07b0bd1c')
    expect(demo.passcode).toBe('1234')
    const locked = (await json<{ state: string }>(app.base, '/__sandbox/accounts/rf_locked_demo')).body
    const expired = (await json<{ state: string }>(app.base, '/__sandbox/accounts/rf_expired_demo')).body
    expect([locked.state, expired.state]).toEqual(['locked', 'expired'])
  })

  it('checks verify_credentials like X: bearer, both cookies, matching x-csrf-token', async () => {
    const account = await newAccount({ name: 'Verifier' })
    const path = '/i/api/1.1/account/verify_credentials.json?skip_status=true'
    const ok = await json<{ id_str: string; screen_name: string }>(app.base, path, { headers: auth(account) })
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({ id_str: account.id, screen_name: account.username, name: 'Verifier' })
    expect(
      (await json(app.base, path, { headers: { ...auth(account), authorization: 'Bearer nope' } })).status,
    ).toBe(401)
    const csrf = await json(app.base, path, {
      headers: { ...auth(account), 'x-csrf-token': 'f'.repeat(160) },
    })
    expect(csrf).toMatchObject({ status: 403, body: { errors: [{ code: 353 }] } })
    const onlyCt0 = await json(app.base, path, {
      headers: { ...auth(account), cookie: `ct0=${ct0Of(account)}` },
    })
    expect(onlyCt0).toMatchObject({ status: 401, body: { errors: [{ code: 32 }] } })
    await json(app.base, `/__sandbox/accounts/${account.username}`, {
      method: 'PATCH',
      body: { state: 'locked' },
    })
    expect(await json(app.base, path, { headers: auth(account) })).toMatchObject({
      status: 403,
      body: { errors: [{ code: 326 }] },
    })
  })

  it('redirects pages: signed out or expired to /i/flow/login, locked to /account/access, /messages to /i/chat', async () => {
    const signedOut = await fetch(`${app.base}/home`, { redirect: 'manual' })
    expect(signedOut.headers.get('location')).toBe('/i/flow/login?redirect_after_login=%2Fhome')
    const expired = await newAccount({ state: 'expired' })
    expect(
      (
        await fetch(`${app.base}/home`, { headers: { cookie: expired.cookieHeader }, redirect: 'manual' })
      ).headers.get('location'),
    ).toMatch(/^\/i\/flow\/login/)
    const locked = await newAccount({ state: 'locked' })
    expect(
      (
        await fetch(`${app.base}/i/chat`, { headers: { cookie: locked.cookieHeader }, redirect: 'manual' })
      ).headers.get('location'),
    ).toBe('/account/access')
    const live = await newAccount()
    expect(
      (
        await fetch(`${app.base}/messages`, { headers: { cookie: live.cookieHeader }, redirect: 'manual' })
      ).headers.get('location'),
    ).toBe('/i/chat')
    const home = await (await fetch(`${app.base}/home`, { headers: { cookie: live.cookieHeader } })).text()
    expect(home).toContain('data-testid="SideNav_AccountSwitcher_Button"')
    const [open] = await profiles('canDm=true&limit=1')
    const [closed] = await profiles('canDm=false&limit=1')
    const profile = async (username: string) =>
      (await fetch(`${app.base}/${username}`, { headers: { cookie: live.cookieHeader } })).text()
    expect(await profile(open?.username ?? '')).toContain('data-testid="sendDMFromProfile"')
    expect(await profile(closed?.username ?? '')).not.toContain('sendDMFromProfile')
    expect(await profile('nobody_at_all')).toContain('data-testid="emptyState"')
  })

  it('locks X Chat after five wrong passcodes', async () => {
    const account = await newAccount({ passcode: '9876' })
    const path = '/i/api/1.1/xchat/pin/verify.json'
    for (let i = 4; i >= 1; i--) {
      expect(await json(app.base, path, { headers: auth(account), body: { pin: '0000' } })).toMatchObject({
        status: 400,
        body: { attempts_left: i },
      })
    }
    expect((await json(app.base, path, { headers: auth(account), body: { pin: '0000' } })).status).toBe(423)
    expect((await json(app.base, path, { headers: auth(account), body: { pin: '9876' } })).status).toBe(423)
    const pin = await (
      await fetch(`${app.base}/i/chat/pin/recovery`, { headers: { cookie: account.cookieHeader } })
    ).text()
    expect(pin).toContain('X Chat is locked')
  })
})

describe('X sandbox GraphQL', () => {
  const gql = (account: Account, operation: string, variables: Record<string, unknown>) =>
    json<Record<string, unknown>>(
      app.base,
      `/i/api/graphql/q1/${operation}?variables=${encodeURIComponent(JSON.stringify(variables))}`,
      { headers: auth(account) },
    )
  const entriesOf = (
    body: unknown,
  ): { entryId: string; content: { cursorType?: string; value?: string } }[] => {
    const data = (body as { data: Record<string, unknown> }).data
    const timeline = ((data.user as { result?: { timeline?: { timeline?: unknown } } } | undefined)?.result
      ?.timeline?.timeline ??
      (data.search_by_raw_query as { search_timeline: { timeline: unknown } } | undefined)?.search_timeline
        .timeline) as {
      instructions: { type: string; entries?: unknown[]; entry?: unknown }[]
    }
    return timeline.instructions.flatMap((i) => (i.entries ?? (i.entry ? [i.entry] : [])) as never[])
  }
  const bottom = (body: unknown) =>
    entriesOf(body).find((e) => e.content.cursorType === 'Bottom')?.content.value

  it('pages Followers 20 at a time until the Bottom cursor repeats, with rate-limit headers', async () => {
    const account = await newAccount()
    const target = (await profiles('limit=500')).find((p) => p.followers > 25 && p.followers < 40)
    if (!target) throw new Error('no small profile')
    const first = await gql(account, 'Followers', { userId: target.id, count: 20 })
    expect(first.headers.get('x-rate-limit-limit')).toBe('50')
    expect(first.headers.get('x-rate-limit-remaining')).toBe('49')
    expect(Number(first.headers.get('x-rate-limit-reset'))).toBeGreaterThan(Date.now() / 1000)
    expect(entriesOf(first.body).filter((e) => e.entryId.startsWith('user-'))).toHaveLength(20)
    const second = await gql(account, 'Followers', {
      userId: target.id,
      count: 20,
      cursor: bottom(first.body),
    })
    expect(entriesOf(second.body).filter((e) => e.entryId.startsWith('user-'))).toHaveLength(
      target.followers - 20,
    )
    const end = await gql(account, 'Followers', { userId: target.id, count: 20, cursor: bottom(second.body) })
    expect(entriesOf(end.body).filter((e) => e.entryId.startsWith('user-'))).toHaveLength(0)
    expect(bottom(end.body)).toBe(bottom(second.body))
  })

  it('replaces search cursors on later pages and answers 429 / code 88 when the window is spent', async () => {
    const account = await newAccount({ behaviour: { scrapeLimit: 2 } })
    const first = await gql(account, 'SearchTimeline', { rawQuery: '#ai', count: 20, product: 'Latest' })
    expect(entriesOf(first.body).filter((e) => e.entryId.startsWith('tweet-'))).toHaveLength(20)
    const second = await gql(account, 'SearchTimeline', {
      rawQuery: '#ai',
      count: 20,
      product: 'Latest',
      cursor: bottom(first.body),
    })
    const instructions = (
      second.body as {
        data: { search_by_raw_query: { search_timeline: { timeline: { instructions: { type: string }[] } } } }
      }
    ).data.search_by_raw_query.search_timeline.timeline.instructions
    expect(instructions.map((i) => i.type)).toEqual([
      'TimelineAddEntries',
      'TimelineReplaceEntry',
      'TimelineReplaceEntry',
    ])
    const limited = await gql(account, 'SearchTimeline', { rawQuery: '#ai', count: 20, product: 'People' })
    expect(limited).toMatchObject({ status: 429, body: { errors: [{ code: 88 }] } })
    expect(limited.headers.get('x-rate-limit-remaining')).toBe('0')
  })
})

describe('X sandbox DMs', () => {
  it('logs each delivery once per request id and answers refusals with X codes', async () => {
    const account = await newAccount({ behaviour: { dailyDmLimit: 3 } })
    const [open] = await profiles('canDm=true&verifiedOnlyRequests=false&limit=1&offset=50')
    const [closed] = await profiles('canDm=false&limit=1')
    const [picky] = await profiles('canDm=true&verifiedOnlyRequests=true&limit=1')
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e'
    expect((await send(account, open?.id ?? '', 'Hello', id)).status).toBe(200)
    expect((await send(account, open?.id ?? '', 'Hello', id)).status).toBe(200)
    expect(await send(account, closed?.id ?? '', 'Hello')).toMatchObject({
      status: 403,
      body: { errors: [{ code: 349 }] },
    })
    expect(await send(account, picky?.id ?? '', 'Hello')).toMatchObject({
      status: 403,
      body: { errors: [{ code: 476 }] },
    })
    expect((await send(account, open?.id ?? '', 'Again')).status).toBe(200)
    expect((await send(account, open?.id ?? '', 'Third')).status).toBe(200)
    expect(await send(account, open?.id ?? '', 'Fourth')).toMatchObject({
      status: 429,
      body: { errors: [{ code: 88 }] },
    })
    const log = await json<{ deliveries: { text: string }[] }>(
      app.base,
      `/__sandbox/deliveries?account=${account.username}`,
    )
    expect(log.body.deliveries.map((d) => d.text)).toEqual(['Hello', 'Again', 'Third'])
    await json(app.base, `/__sandbox/deliveries?account=${account.username}`, { method: 'DELETE' })
    expect(
      (await json<{ count: number }>(app.base, `/__sandbox/deliveries?account=${account.username}`)).body
        .count,
    ).toBe(0)
  })

  it('blocks an account that sends too fast (226) until unblocked', async () => {
    const account = await newAccount({ behaviour: { maxSendsPerMinute: 2 } })
    const leads = await profiles('canDm=true&verifiedOnlyRequests=false&limit=4&offset=60')
    expect((await send(account, leads[0]?.id ?? '', 'a')).status).toBe(200)
    expect((await send(account, leads[1]?.id ?? '', 'b')).status).toBe(200)
    expect(await send(account, leads[2]?.id ?? '', 'c')).toMatchObject({
      status: 403,
      body: { errors: [{ code: 226 }] },
    })
    await json(app.base, `/__sandbox/accounts/${account.username}`, {
      method: 'PATCH',
      body: { unblock: true, behaviour: { maxSendsPerMinute: 10 } },
    })
    expect((await send(account, leads[3]?.id ?? '', 'd')).status).toBe(200)
  })

  it('holds the answer of an ack_lost send but logs the delivery', async () => {
    const account = await newAccount()
    const [lead] = await profiles('canDm=true&verifiedOnlyRequests=false&limit=1&offset=70')
    await json(app.base, '/__sandbox/faults', {
      body: { account: account.username, target: 'send', mode: 'ack_lost' },
    })
    const hung = await fetch(`${app.base}/i/api/1.1/dm/new2.json`, {
      method: 'POST',
      headers: { ...auth(account), 'content-type': 'application/json' },
      body: JSON.stringify({ conversation_id: conversationId(account.id, lead?.id ?? ''), text: 'Silent' }),
      signal: AbortSignal.timeout(500),
    }).catch((e: Error) => e)
    expect(hung).toBeInstanceOf(Error)
    const log = await json<{ count: number }>(app.base, `/__sandbox/deliveries?account=${account.username}`)
    expect(log.body.count).toBe(1)
  })

  it('schedules replies on the sandbox clock: nothing before the delay, the reply after', async () => {
    const account = await newAccount({
      behaviour: { replyShare: 1, replyDelayMs: [3_600_000, 3_600_000], optOutShare: 1 },
    })
    const [lead] = await profiles('canDm=true&verifiedOnlyRequests=false&limit=1&offset=80')
    await send(account, lead?.id ?? '', 'Interested?')
    type Threads = { threads: { messages: { text: string; fromAccount: boolean }[] }[] }
    const before = await json<Threads>(app.base, `/__sandbox/threads?account=${account.username}`)
    expect(before.body.threads[0]?.messages).toHaveLength(1)
    await json(app.base, '/__sandbox/clock', { body: { advanceMs: 3_600_000 } })
    try {
      const after = await json<Threads>(app.base, `/__sandbox/threads?account=${account.username}`)
      const reply = after.body.threads[0]?.messages[1]
      expect(reply?.fromAccount).toBe(false)
      expect(['stop', 'Please unsubscribe me', 'STOP']).toContain(reply?.text)
      const conversation = await json<{ messages: { status: string }[] }>(
        app.base,
        `/i/api/1.1/dm/conversation/${conversationId(account.id, lead?.id ?? '')}.json`,
        { headers: auth(account) },
      )
      expect(conversation.body.messages[0]?.status).toBe('read')
    } finally {
      await json(app.base, '/__sandbox/clock', { body: { offsetMs: 0 } })
    }
  })

  it('keeps accounts and the delivery log across a restart', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sandbox-x-')), 'sandbox-x.json')
    const first = await start(file)
    const account = (await json<Account>(first.base, '/__sandbox/accounts', { body: { passcode: null } }))
      .body
    const [lead] = (
      await json<{ profiles: { id: string }[] }>(
        first.base,
        '/__sandbox/profiles?canDm=true&verifiedOnlyRequests=false&limit=1',
      )
    ).body.profiles
    const sent = await json(first.base, '/i/api/1.1/dm/new2.json', {
      headers: auth(account),
      body: { conversation_id: conversationId(account.id, lead?.id ?? ''), text: 'Persisted' },
    })
    expect(sent.status).toBe(200)
    first.stop()
    const second = await start(file)
    try {
      const log = await json<{ deliveries: { text: string }[] }>(
        second.base,
        `/__sandbox/deliveries?account=${account.username}`,
      )
      expect(log.body.deliveries.map((d) => d.text)).toEqual(['Persisted'])
      const verify = await json(second.base, '/i/api/1.1/account/verify_credentials.json', {
        headers: auth(account),
      })
      expect(verify.status).toBe(200)
    } finally {
      second.stop()
    }
  })
})
