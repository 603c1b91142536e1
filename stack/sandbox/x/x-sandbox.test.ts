// The X sandbox over HTTP, in-process: demo accounts, verify_credentials answering 404 to cookie
// sessions, redirects of expired and locked sessions, pages that are shells for the bundle, GraphQL
// only with the release's query ids and the page's transaction id (paging, rate limits), X Chat's
// passcode lock and encrypted sends with every refusal, the delivery log, replies on the test clock,
// the site-change drill, and state surviving a restart. (What the browser sees is the runner's tests.)
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { json, listening } from '../test-helpers.ts'
import { conversationId } from './accounts.ts'
import { startXSandbox } from './app.ts'
import { transactionIdFor } from './release.ts'
import { apiHeaders, chat, chatKeyOf, graphql, pageKeyOf, type TestAccount } from './test-support.ts'

type App = Awaited<ReturnType<typeof start>>
const start = (stateFile?: string) => listening(startXSandbox({ port: 0, stateFile }))
let app: App

const newAccount = async (body: Record<string, unknown> = {}) =>
  (await json<TestAccount>(app.base, '/__sandbox/accounts', { body: { passcode: null, ...body } })).body
const profiles = async (query: string) =>
  (
    await json<{ profiles: { id: string; username: string; followers: number }[] }>(
      app.base,
      `/__sandbox/profiles?${query}`,
    )
  ).body.profiles
async function sender(account: TestAccount, passcode: string | null = null) {
  const key = await chatKeyOf(app.base, account, passcode)
  return (peerId: string, text: string, requestId?: string) =>
    chat(app.base, account, key, '/i/api/1.1/xchat/send.json', {
      conversation_id: conversationId(account.id, peerId),
      text,
      ...(requestId ? { request_id: requestId } : {}),
    })
}

beforeAll(async () => {
  app = await start()
})
afterAll(() => {
  app.stop()
})

describe('X sandbox accounts and sessions', () => {
  it('has the documented demo accounts with fixed cookies and passcode 1234', async () => {
    const demo = (
      await json<TestAccount & { passcode: string; state: string }>(
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

  it('answers verify_credentials and settings with 404 and no body, even for a good cookie session', async () => {
    const account = await newAccount({ name: 'Verifier' })
    for (const path of [
      '/i/api/1.1/account/verify_credentials.json?skip_status=true',
      '/i/api/1.1/account/settings.json',
    ]) {
      const answer = await fetch(`${app.base}${path}`, { headers: apiHeaders(account) })
      expect(answer.status).toBe(404)
      expect(await answer.text()).toBe('')
    }
  })

  it('redirects signed-out, expired and locked sessions; a signed-in page is a shell its bundle renders', async () => {
    const signedOut = await fetch(`${app.base}/home`, { redirect: 'manual' })
    expect(signedOut.headers.get('location')).toBe('/i/flow/login?redirect_after_login=%2Fhome')
    const expired = await newAccount({ state: 'expired' })
    const expiredHome = await fetch(`${app.base}/home`, {
      headers: { cookie: expired.cookieHeader },
      redirect: 'manual',
    })
    expect(expiredHome.headers.get('location')).toMatch(/^\/i\/flow\/login/)
    const locked = await newAccount({ state: 'locked' })
    const lockedChat = await fetch(`${app.base}/i/chat`, {
      headers: { cookie: locked.cookieHeader },
      redirect: 'manual',
    })
    expect(lockedChat.headers.get('location')).toBe('/account/access')
    const live = await newAccount()
    const messages = await fetch(`${app.base}/messages`, {
      headers: { cookie: live.cookieHeader },
      redirect: 'manual',
    })
    expect(messages.headers.get('location')).toBe('/i/chat')

    const home = await (await fetch(`${app.base}/home`, { headers: { cookie: live.cookieHeader } })).text()
    // nothing of the page is in the HTML: the account menu, profiles and chat are rendered by the bundle
    expect(home).not.toContain('SideNav_AccountSwitcher_Button')
    const bundle = /<script src="(\/responsive-web\/client-web\/main\.[0-9a-f]{8}\.js)"><\/script>/.exec(
      home,
    )?.[1]
    expect(bundle).toBeDefined()
    const [open] = await profiles('canDm=true&limit=1')
    const profile = await (
      await fetch(`${app.base}/${open?.username}`, { headers: { cookie: live.cookieHeader } })
    ).text()
    expect(profile).not.toContain('sendDMFromProfile')
    // the release's query ids are only in the bundle, written as X's bundle writes them
    const source = await (await fetch(`${app.base}${bundle}`)).text()
    const release = app.releases.current
    for (const [operation, id] of Object.entries(release.queryIds))
      expect(source).toContain(`queryId:"${id}",operationName:"${operation}"`)
    expect(home).not.toContain(release.queryIds.SearchTimeline)
  })

  it('locks X Chat after five wrong passcodes; the right one hands over the wrapped chat key', async () => {
    const account = await newAccount({ passcode: '9876' })
    const path = '/i/api/1.1/xchat/pin/verify.json'
    const headers = apiHeaders(account)
    expect(await chatKeyOf(app.base, account, '9876')).toHaveLength(32)
    for (let i = 4; i >= 1; i--) {
      expect(await json(app.base, path, { headers, body: { pin: '0000' } })).toMatchObject({
        status: 400,
        body: { attempts_left: i },
      })
    }
    expect((await json(app.base, path, { headers, body: { pin: '0000' } })).status).toBe(423)
    expect((await json(app.base, path, { headers, body: { pin: '9876' } })).status).toBe(423)
    const pin = await (
      await fetch(`${app.base}/i/chat/pin/recovery`, { headers: { cookie: account.cookieHeader } })
    ).text()
    expect(pin).toContain('"chatLocked":true')
    // an account with a passcode gets no key without it
    expect((await fetch(`${app.base}/i/api/1.1/xchat/keys.json`, { headers })).status).toBe(403)
  })
})

describe('X sandbox GraphQL', () => {
  type Entry = { entryId: string; content: { cursorType?: string; value?: string } }
  const entriesOf = (body: unknown): Entry[] => {
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

  it('answers 404 with an empty body without the page transaction id, for another path, or with a stale query id', async () => {
    const account = await newAccount()
    const variables = { rawQuery: 'coffee', count: 20, product: 'People' }
    const release = app.releases.current
    expect((await graphql(app.base, account, release, 'SearchTimeline', variables)).status).toBe(200)
    const without = await graphql(app.base, account, release, 'SearchTimeline', variables, {
      transactionId: null,
    })
    expect([without.status, without.text]).toEqual([404, ''])
    const otherPath = transactionIdFor(
      release,
      await pageKeyOf(app.base, account),
      'GET',
      '/i/api/graphql/x/Followers',
    )
    const wrong = await graphql(app.base, account, release, 'SearchTimeline', variables, {
      transactionId: otherPath,
    })
    expect([wrong.status, wrong.text]).toEqual([404, ''])
    const forged = await graphql(app.base, account, release, 'SearchTimeline', variables, {
      transactionId: Buffer.alloc(70, 7).toString('base64'),
    })
    expect([forged.status, forged.text]).toEqual([404, ''])
    const rotated = await json<{ id: string; queryIds: Record<string, string> }>(
      app.base,
      '/__sandbox/release',
      {
        method: 'POST',
      },
    )
    expect(rotated.body.id).not.toBe(release.id)
    const stale = await graphql(app.base, account, release, 'SearchTimeline', variables)
    expect([stale.status, stale.text]).toEqual([404, ''])
    expect((await graphql(app.base, account, app.releases.current, 'SearchTimeline', variables)).status).toBe(
      200,
    )
  })

  it('pages Followers 20 at a time until the Bottom cursor repeats, with rate-limit headers', async () => {
    const account = await newAccount()
    const target = (await profiles('limit=500')).find((p) => p.followers > 25 && p.followers < 40)
    if (!target) throw new Error('no small profile')
    const release = app.releases.current
    const first = await graphql(app.base, account, release, 'Followers', { userId: target.id, count: 20 })
    expect(first.headers.get('x-rate-limit-limit')).toBe('50')
    expect(first.headers.get('x-rate-limit-remaining')).toBe('49')
    expect(Number(first.headers.get('x-rate-limit-reset'))).toBeGreaterThan(Date.now() / 1000)
    expect(entriesOf(first.body).filter((e) => e.entryId.startsWith('user-'))).toHaveLength(20)
    const second = await graphql(app.base, account, release, 'Followers', {
      userId: target.id,
      count: 20,
      cursor: bottom(first.body),
    })
    expect(entriesOf(second.body).filter((e) => e.entryId.startsWith('user-'))).toHaveLength(
      target.followers - 20,
    )
    const end = await graphql(app.base, account, release, 'Followers', {
      userId: target.id,
      count: 20,
      cursor: bottom(second.body),
    })
    expect(entriesOf(end.body).filter((e) => e.entryId.startsWith('user-'))).toHaveLength(0)
    expect(bottom(end.body)).toBe(bottom(second.body))
  })

  it('replaces search cursors on later pages and answers 429 / code 88 when the window is spent', async () => {
    const account = await newAccount({ behaviour: { scrapeLimit: 2 } })
    const release = app.releases.current
    const search = (variables: Record<string, unknown>) =>
      graphql(app.base, account, release, 'SearchTimeline', { rawQuery: '#ai', count: 20, ...variables })
    const first = await search({ product: 'Latest' })
    expect(entriesOf(first.body).filter((e) => e.entryId.startsWith('tweet-'))).toHaveLength(20)
    const second = await search({ product: 'Latest', cursor: bottom(first.body) })
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
    const limited = await search({ product: 'People' })
    expect(limited).toMatchObject({ status: 429, body: { errors: [{ code: 88 }] } })
    expect(limited.headers.get('x-rate-limit-remaining')).toBe('0')
  })
})

describe('X sandbox X Chat', () => {
  it('logs each delivery once per request id and answers refusals with X codes, all encrypted', async () => {
    const account = await newAccount({ behaviour: { dailyDmLimit: 3 } })
    const send = await sender(account)
    const [open] = await profiles('canDm=true&verifiedOnlyRequests=false&limit=1&offset=50')
    const [closed] = await profiles('canDm=false&limit=1')
    const [picky] = await profiles('canDm=true&verifiedOnlyRequests=true&limit=1')
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e'
    const first = await send(open?.id ?? '', 'Hello', id)
    expect(first.status).toBe(200)
    expect(first.raw).not.toContain('Hello')
    expect(first.body).toMatchObject({ event: { id, text: 'Hello' } })
    expect((await send(open?.id ?? '', 'Hello', id)).status).toBe(200)
    expect(await send(closed?.id ?? '', 'Hello')).toMatchObject({
      status: 403,
      body: { errors: [{ code: 349 }] },
    })
    expect(await send(picky?.id ?? '', 'Hello')).toMatchObject({
      status: 403,
      body: { errors: [{ code: 476 }] },
    })
    expect((await send(open?.id ?? '', 'Again')).status).toBe(200)
    expect((await send(open?.id ?? '', 'Third')).status).toBe(200)
    expect(await send(open?.id ?? '', 'Fourth')).toMatchObject({
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

  it('refuses a payload that is not sealed with the account’s key', async () => {
    const account = await newAccount()
    const other = await newAccount()
    const [lead] = await profiles('canDm=true&verifiedOnlyRequests=false&limit=1&offset=55')
    const plain = await json(app.base, '/i/api/1.1/xchat/send.json', {
      headers: apiHeaders(account),
      body: { conversation_id: conversationId(account.id, lead?.id ?? ''), text: 'Plain' },
    })
    expect(plain.status).toBe(400)
    const wrongKey = await chat(
      app.base,
      account,
      await chatKeyOf(app.base, other, null),
      '/i/api/1.1/xchat/send.json',
      {
        conversation_id: conversationId(account.id, lead?.id ?? ''),
        text: 'Wrong key',
      },
    )
    expect(wrongKey.status).toBe(400)
    expect(
      (await json<{ count: number }>(app.base, `/__sandbox/deliveries?account=${account.username}`)).body
        .count,
    ).toBe(0)
  })

  it('blocks an account that sends too fast (226) until unblocked', async () => {
    const account = await newAccount({ behaviour: { maxSendsPerMinute: 2 } })
    const send = await sender(account)
    const leads = await profiles('canDm=true&verifiedOnlyRequests=false&limit=4&offset=60')
    expect((await send(leads[0]?.id ?? '', 'a')).status).toBe(200)
    expect((await send(leads[1]?.id ?? '', 'b')).status).toBe(200)
    expect(await send(leads[2]?.id ?? '', 'c')).toMatchObject({
      status: 403,
      body: { errors: [{ code: 226 }] },
    })
    await json(app.base, `/__sandbox/accounts/${account.username}`, {
      method: 'PATCH',
      body: { unblock: true, behaviour: { maxSendsPerMinute: 10 } },
    })
    expect((await send(leads[3]?.id ?? '', 'd')).status).toBe(200)
  })

  it('holds the answer of an ack_lost send but logs the delivery', async () => {
    const account = await newAccount()
    const key = await chatKeyOf(app.base, account, null)
    const [lead] = await profiles('canDm=true&verifiedOnlyRequests=false&limit=1&offset=70')
    await json(app.base, '/__sandbox/faults', {
      body: { account: account.username, target: 'send', mode: 'ack_lost' },
    })
    const hung = await chat(
      app.base,
      account,
      key,
      '/i/api/1.1/xchat/send.json',
      { conversation_id: conversationId(account.id, lead?.id ?? ''), text: 'Silent' },
      AbortSignal.timeout(500),
    ).catch((e: Error) => e)
    expect(hung).toBeInstanceOf(Error)
    const log = await json<{ count: number }>(app.base, `/__sandbox/deliveries?account=${account.username}`)
    expect(log.body.count).toBe(1)
  })

  it('schedules replies on the sandbox clock; the conversation and inbox are readable only with the key', async () => {
    const account = await newAccount({
      behaviour: { replyShare: 1, replyDelayMs: [3_600_000, 3_600_000], optOutShare: 1 },
    })
    const key = await chatKeyOf(app.base, account, null)
    const send = await sender(account)
    const [lead] = await profiles('canDm=true&verifiedOnlyRequests=false&limit=1&offset=80')
    await send(lead?.id ?? '', 'Interested?')
    type Threads = { threads: { messages: { text: string; fromAccount: boolean }[] }[] }
    const before = await json<Threads>(app.base, `/__sandbox/threads?account=${account.username}`)
    expect(before.body.threads[0]?.messages).toHaveLength(1)
    await json(app.base, '/__sandbox/clock', { body: { advanceMs: 3_600_000 } })
    try {
      const after = await json<Threads>(app.base, `/__sandbox/threads?account=${account.username}`)
      const reply = after.body.threads[0]?.messages[1]
      expect(reply?.fromAccount).toBe(false)
      expect(['stop', 'Please unsubscribe me', 'STOP']).toContain(reply?.text)
      const inbox = await chat(app.base, account, key, '/i/api/1.1/xchat/inbox.json?folder=primary')
      expect(inbox.raw).not.toContain(reply?.text ?? '-')
      expect(inbox.body).toMatchObject({ conversations: [{ unread: true, last: { text: reply?.text } }] })
      const conversation = await chat(
        app.base,
        account,
        key,
        `/i/api/1.1/xchat/conversation/${conversationId(account.id, lead?.id ?? '')}.json`,
      )
      expect(conversation.raw).not.toContain('Interested?')
      expect((conversation.body as { messages: { status: string }[] }).messages[0]?.status).toBe('read')
    } finally {
      await json(app.base, '/__sandbox/clock', { body: { offsetMs: 0 } })
    }
  })

  it('renames test ids in the chat bundle while the site-change drill is on, and back when it is off', async () => {
    const account = await newAccount()
    const bundleOf = async () => {
      const html = await (
        await fetch(`${app.base}/i/chat`, { headers: { cookie: account.cookieHeader } })
      ).text()
      const main = /src="([^"]+main\.[^"]+)"/.exec(html)?.[1] ?? ''
      const source = await (await fetch(`${app.base}${main}`)).text()
      const chatBundle = /chatBundle:"([^"]+)"/.exec(source)?.[1] ?? ''
      return (await fetch(`${app.base}${chatBundle}`)).text()
    }
    expect(await bundleOf()).toContain('"renames":{}')
    const on = await json<{ renames: Record<string, string> }>(app.base, '/__sandbox/site-change', {
      body: {},
    })
    expect(on.body.renames).toEqual({
      'dm-conversation-panel': 'dm-conversation-view',
      'dm-composer-textarea': 'dm-composer-input',
    })
    expect(await bundleOf()).toContain('"dm-conversation-panel":"dm-conversation-view"')
    const bad = await json(app.base, '/__sandbox/site-change', {
      body: { renames: { 'dm-inbox-panel': '<b>' } },
    })
    expect(bad.status).toBe(400)
    await json(app.base, '/__sandbox/site-change', { method: 'DELETE' })
    expect(await bundleOf()).toContain('"renames":{}')
  })

  it('keeps accounts, chat keys and the delivery log across a restart', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sandbox-x-')), 'sandbox-x.json')
    const first = await start(file)
    const account = (await json<TestAccount>(first.base, '/__sandbox/accounts', { body: { passcode: null } }))
      .body
    const [lead] = (
      await json<{ profiles: { id: string }[] }>(
        first.base,
        '/__sandbox/profiles?canDm=true&verifiedOnlyRequests=false&limit=1',
      )
    ).body.profiles
    const key = await chatKeyOf(first.base, account, null)
    const sent = await chat(first.base, account, key, '/i/api/1.1/xchat/send.json', {
      conversation_id: conversationId(account.id, lead?.id ?? ''),
      text: 'Persisted',
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
      // the browser's stored key still opens what the restarted sandbox sends
      const conversation = await chat(
        second.base,
        account,
        key,
        `/i/api/1.1/xchat/conversation/${conversationId(account.id, lead?.id ?? '')}.json`,
      )
      expect(conversation.body).toMatchObject({ messages: [{ text: 'Persisted' }] })
    } finally {
      second.stop()
    }
  })
})
