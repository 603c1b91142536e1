// X Chat in the X sandbox over HTTP, in-process, playing the page as its bundle does: every payload
// sealed with the account's chat key, each delivery logged once per request id, X's refusal codes,
// the send faults, replies on the test clock, the site-change drill and state surviving a restart.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { json, listening } from '../test-helpers.ts'
import { conversationId } from './accounts.ts'
import { startXSandbox } from './app.ts'
import { apiHeaders, chat, chatKeyOf, type TestAccount } from './test-support.ts'

type App = Awaited<ReturnType<typeof start>>
const start = (stateFile?: string) => listening(startXSandbox({ port: 0, stateFile }))
let app: App

const newAccount = async (body: Record<string, unknown> = {}) =>
  (await json<TestAccount>(app.base, '/__sandbox/accounts', { body: { passcode: null, ...body } })).body
const profiles = async (query: string) =>
  (await json<{ profiles: { id: string; username: string }[] }>(app.base, `/__sandbox/profiles?${query}`))
    .body.profiles
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
      // no delivery state: nothing public says X Chat hands the page one
      expect((conversation.body as { messages: object[] }).messages[0]).not.toHaveProperty('status')
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
