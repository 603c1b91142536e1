// The Instagram sandbox over HTTP, in-process: demo accounts, the login flow (CSRF, wrong
// password, TOTP 2FA on the sandbox clock, checkpoints and fresh-login floods), sessions,
// API headers, followers and hashtag paging, and DM refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { json, listening } from '../test-helpers.ts'
import { IG_APP_ID } from './accounts.ts'
import { startInstagramSandbox } from './app.ts'
import { totpAt, verifyTotp } from './totp.ts'

let app: Awaited<ReturnType<typeof listening<ReturnType<typeof startInstagramSandbox>>>>

interface Account {
  id: string
  username: string
  password: string
  totpSecret: string | null
}

/** A browser-like session: csrftoken from the login page, cookies kept between calls. */
class Client {
  cookies = new Map<string, string>()

  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }

  keep(headers: Headers) {
    for (const line of headers.getSetCookie()) {
      const [pair = ''] = line.split(';')
      const eq = pair.indexOf('=')
      this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1))
    }
  }

  async page(path: string) {
    const response = await fetch(`${app.base}${path}`, {
      headers: { cookie: this.header() },
      redirect: 'manual',
    })
    this.keep(response.headers)
    return {
      status: response.status,
      location: response.headers.get('location'),
      text: await response.text(),
    }
  }

  async api<T = Record<string, unknown>>(
    path: string,
    form?: Record<string, string>,
    headers: Record<string, string> = {},
  ) {
    const result = await json<T>(app.base, path, {
      method: form ? 'POST' : 'GET',
      form,
      headers: {
        cookie: this.header(),
        'x-ig-app-id': IG_APP_ID,
        'x-csrftoken': this.cookies.get('csrftoken') ?? '',
        ...headers,
      },
    })
    this.keep(result.headers)
    return result
  }

  async login(account: Account, password = account.password) {
    await this.page('/accounts/login/')
    return this.api<Record<string, unknown>>('/api/v1/web/accounts/login/ajax/', {
      username: account.username,
      enc_password: `#PWD_INSTAGRAM_BROWSER:0:${Math.floor(Date.now() / 1000)}:${password}`,
    })
  }
}

const sandboxNow = async () => (await json<{ now: number }>(app.base, '/__sandbox/clock')).body.now
const newAccount = async (body: Record<string, unknown> = {}) =>
  (await json<Account>(app.base, '/__sandbox/accounts', { body })).body
async function signedIn(body: Record<string, unknown> = {}) {
  const account = await newAccount({ twoFactor: false, ...body })
  const client = new Client()
  expect((await client.login(account)).body).toMatchObject({ authenticated: true })
  return { account, client }
}
const profiles = async (query: string) =>
  (
    await json<{ profiles: { id: string; username: string; followers: number }[] }>(
      app.base,
      `/__sandbox/profiles?${query}`,
    )
  ).body.profiles

beforeAll(async () => {
  app = await listening(startInstagramSandbox({ port: 0 }))
})
afterAll(() => app.stop())

describe('Instagram sandbox login', () => {
  it('has the documented demo accounts', async () => {
    const demo = (await json<Account>(app.base, '/__sandbox/accounts/reachflow.demo')).body
    expect(demo).toMatchObject({ password: 'demo-password', totpSecret: 'REACHFLOWDEMO234' })
    expect((await json<Account>(app.base, '/__sandbox/accounts/reachflow.no2fa')).body.totpSecret).toBeNull()
    expect((await json(app.base, '/__sandbox/accounts/reachflow.checkpoint')).body).toMatchObject({
      challenge: 'always',
    })
  })

  it('serves the login page with a cookie banner and a csrftoken, and refuses a login without it', async () => {
    const client = new Client()
    const page = await client.page('/accounts/login/')
    expect(page.text).toContain('Allow the use of cookies from Instagram by this browser?')
    expect(page.text).toContain('id="slfErrorAlert"')
    // since February 2026: no name attributes on the fields, a submit found by role and text
    const inputs = page.text.match(/<input[^>]*>/g) ?? []
    expect(inputs.map((i) => /type="(\w+)"/.exec(i)?.[1])).toEqual(['text', 'password'])
    expect(inputs.some((i) => / name=/.test(i))).toBe(false)
    expect(page.text).not.toContain('type="submit"')
    expect(page.text).toMatch(/<div role="button"[^>]*>Log in<\/div>/)
    expect(client.cookies.get('csrftoken')).toMatch(/^[0-9a-f]{32}$/)
    const noCsrf = await client.api(
      '/api/v1/web/accounts/login/ajax/',
      { username: 'x', enc_password: 'y' },
      { 'x-csrftoken': 'wrong' },
    )
    expect(noCsrf.status).toBe(403)
  })

  it('tells a wrong password from an unknown user', async () => {
    const account = await newAccount({ twoFactor: false })
    expect((await new Client().login(account, 'nope-nope')).body).toEqual({
      user: true,
      authenticated: false,
      status: 'ok',
    })
    expect((await new Client().login({ ...account, username: 'ghost.user.zz' })).body).toMatchObject({
      user: false,
    })
  })

  it('asks for a TOTP code and checks it on the sandbox clock (±1 step)', async () => {
    const account = await newAccount({ password: 'pass-1234' })
    const secret = account.totpSecret ?? ''
    const client = new Client()
    const first = await client.login(account)
    expect(first).toMatchObject({ status: 400, body: { two_factor_required: true } })
    const identifier = String(
      (first.body.two_factor_info as { two_factor_identifier: string }).two_factor_identifier,
    )
    const twoFactor = (code: string) =>
      client.api('/api/v1/web/accounts/login/ajax/two_factor/', {
        username: account.username,
        identifier,
        verificationCode: code,
      })
    expect(await twoFactor('000000')).toMatchObject({
      status: 400,
      body: { error_type: 'invalid_verification_code' },
    })
    expect((await twoFactor(totpAt(secret, (await sandboxNow()) - 5 * 60_000))).status).toBe(400)
    expect((await twoFactor(totpAt(secret, await sandboxNow()))).body).toMatchObject({
      authenticated: true,
      userId: account.id,
    })
    expect(client.cookies.get('sessionid')).toContain(account.id)
    // the code field is found by its label and type: no name, as the login fields since February 2026
    expect((await client.page('/accounts/login/two_factor')).text).toMatch(
      /<input type="tel" aria-label="Security Code"(?![^>]*name=)/,
    )
    expect((await client.page('/direct/inbox/')).status).toBe(200)

    const later = 2 * 3_600_000
    await json(app.base, '/__sandbox/clock', { body: { offsetMs: later } })
    try {
      expect(verifyTotp(secret, totpAt(secret, Date.now()), await sandboxNow())).toBe(false)
      expect(verifyTotp(secret, totpAt(secret, Date.now() + later), await sandboxNow())).toBe(true)
    } finally {
      await json(app.base, '/__sandbox/clock', { body: { offsetMs: 0 } })
    }
  })

  it('sends flagged accounts and fresh-login floods to a checkpoint', async () => {
    const flagged = await newAccount({ twoFactor: false, challenge: 'always' })
    expect((await new Client().login(flagged)).body).toMatchObject({
      message: 'checkpoint_required',
      checkpoint_url: expect.stringMatching(/^\/challenge\//),
    })
    const busy = await newAccount({ twoFactor: false })
    for (let i = 0; i < 5; i++)
      expect((await new Client().login(busy)).body).toMatchObject({ authenticated: true })
    expect((await new Client().login(busy)).body).toMatchObject({ message: 'checkpoint_required' })
  })

  it('hands out a live session for an account created signed in', async () => {
    const created = (
      await json<Account & { sessionCookies: { name: string; value: string }[] }>(
        app.base,
        '/__sandbox/accounts',
        { body: { signedIn: true, behaviour: { webDirectJson: 1 } } },
      )
    ).body
    const client = new Client()
    for (const c of created.sessionCookies) client.cookies.set(c.name, c.value)
    expect((await client.page('/direct/inbox/')).status).toBe(200)
    expect((await client.api('/api/v1/direct_v2/inbox/')).body).toMatchObject({
      viewer: { username: created.username },
    })
  })

  it('sends signed-out pages to login and refuses API calls without the app id or a session', async () => {
    const client = new Client()
    expect((await client.page('/direct/inbox/')).location).toBe('/accounts/login/?next=%2Fdirect%2Finbox%2F')
    expect((await client.api('/api/v1/direct_v2/inbox/')).body).toMatchObject({ message: 'login_required' })
    // the JSON's guards, on an account whose JSON answers the web page
    const { client: live } = await signedIn({ behaviour: { webDirectJson: 1 } })
    expect((await live.api('/api/v1/direct_v2/inbox/', undefined, { 'x-ig-app-id': '' })).body).toMatchObject(
      { message: 'useragent mismatch' },
    )
    expect((await live.api('/api/v1/direct_v2/inbox/')).status).toBe(200)
  })

  it('answers the direct_v2 JSON as an unknown endpoint by default, its pages still served', async () => {
    const { client } = await signedIn()
    for (const path of [
      '/api/v1/direct_v2/inbox/',
      '/api/v1/direct_v2/pending_inbox/',
      '/api/v1/direct_v2/threads/1/',
    ])
      expect(await client.api(path)).toMatchObject({ status: 404, body: { error: 'Not found' } })
    expect((await client.page('/direct/inbox/')).status).toBe(200)
    expect((await client.page('/direct/requests/')).status).toBe(200)
  })
})

describe('Instagram sandbox listings and DMs', () => {
  it('pages followers by max_id until next_max_id is gone, and hides private accounts', async () => {
    const { client } = await signedIn()
    const target = (await profiles('limit=400&protected=false')).find(
      (p) => p.followers > 12 && p.followers < 24,
    )
    if (!target) throw new Error('no small profile')
    type Page = { users: { pk: string }[]; next_max_id?: string }
    const first = await client.api<Page>(`/api/v1/friendships/${target.id}/followers/?count=12`)
    expect(first.body.users).toHaveLength(12)
    const second = await client.api<Page>(
      `/api/v1/friendships/${target.id}/followers/?count=12&max_id=${first.body.next_max_id}`,
    )
    expect(second.body.users).toHaveLength(target.followers - 12)
    expect(second.body.next_max_id).toBeUndefined()
    const [hidden] = await profiles('protected=true&limit=1')
    expect((await client.api(`/api/v1/friendships/${hidden?.id}/followers/`)).body).toMatchObject({
      message: 'Not authorized to view user',
    })
  })

  it('pages hashtag sections until more_available is false', async () => {
    const { client } = await signedIn({ behaviour: { scrapeLimit: 1000 } })
    type Sections = {
      sections: { layout_content: { medias: unknown[] } }[]
      more_available: boolean
      next_max_id: string | null
    }
    let page = await client.api<Sections>('/api/v1/tags/coffee/sections/', { tab: 'recent' })
    let medias = 0
    let pages = 0
    while (page.body.more_available) {
      medias += page.body.sections.reduce((n, s) => n + s.layout_content.medias.length, 0)
      page = await client.api<Sections>('/api/v1/tags/coffee/sections/', {
        tab: 'recent',
        max_id: page.body.next_max_id ?? '',
      })
      pages++
    }
    medias += page.body.sections.reduce((n, s) => n + s.layout_content.medias.length, 0)
    expect(pages).toBeGreaterThan(10)
    expect(page.body.next_max_id).toBeNull()
    expect(medias).toBe(app.population.withTopic('coffee').length)
  })

  it('draws the 2026 thread page: no rows or names, the newest 20 messages, column-reverse, a notice for a closed lead', async () => {
    const { account, client } = await signedIn()
    const [lead] = await profiles('canDm=true&verifiedOnlyRequests=false&protected=false&limit=1&offset=80')
    const [closed] = await profiles('canDm=false&protected=false&limit=1&offset=3')
    const open = async (pk: string) =>
      (
        await client.api<{ thread_id: string }>('/api/v1/direct_v2/create_group_thread/', {
          recipient_users: JSON.stringify([pk]),
        })
      ).body.thread_id
    const threadId = await open(lead?.id ?? '')
    for (let i = 1; i <= 25; i++)
      await json(app.base, '/__sandbox/messages', {
        body: { account: account.username, from: lead?.username, text: `Line ${i}` },
      })
    const page = (await client.page(`/direct/t/${threadId}/`)).text
    expect(page).toContain('data-pagelet="IGDMessagesList"')
    expect(page).not.toMatch(/role="(row|grid)"|aria-label="Conversation|data-item-id|<time/)
    const list = page.slice(page.indexOf('IGDMessagesList'), page.indexOf('role="textbox"'))
    // newest first in the page (shown at the bottom), the oldest five left out
    expect([...list.matchAll(/>Line (\d+)</g)].map((m) => Number(m[1]))).toEqual(
      Array.from({ length: 20 }, (_, i) => 25 - i),
    )
    expect(page).toMatch(/<div role="textbox" contenteditable="true" aria-label="Message"/)
    const refused = (await client.page(`/direct/t/${await open(closed?.id ?? '')}/`)).text
    expect(refused).not.toContain('role="textbox"')
    expect(refused).toMatch(/<div role="status"[^>]*><span dir="auto">[^<]*(receive|accepting)/)
    expect((await client.page('/direct/new/')).text).not.toContain('name=')
    expect(
      (
        await client.api('/api/graphql', {
          fb_api_req_friendly_name: 'IGDThreadMessagesQuery',
          variables: JSON.stringify({ thread_id: threadId, last: 3 }),
        })
      ).body,
    ).toMatchObject({ data: { messages: [{ text: 'Line 23' }, { text: 'Line 24' }, { text: 'Line 25' }] } })
  })

  it('marks a thread seen up to an item the open thread page saw arrive', async () => {
    // the inbox JSON, switched on for this account, is how the test sees the read state and the item ids
    const { account, client } = await signedIn({ behaviour: { webDirectJson: 1 } })
    const [lead] = await profiles('canDm=true&verifiedOnlyRequests=false&protected=false&limit=1&offset=60')
    const threadId = (
      await client.api<{ thread_id: string }>('/api/v1/direct_v2/create_group_thread/', {
        recipient_users: JSON.stringify([lead?.id ?? '']),
      })
    ).body.thread_id
    const hi = await client.api('/api/graphql', {
      fb_api_req_friendly_name: 'IGDirectTextSendMutation',
      variables: JSON.stringify({
        thread_id: threadId,
        text: 'Hi',
        offline_threading_id: String(Date.now()),
      }),
    })
    expect(hi.status).toBe(200)
    await json(app.base, '/__sandbox/messages', {
      body: { account: account.username, from: lead?.username, text: 'Sounds good' },
    })
    type Inbox = {
      inbox: { threads: { thread_id: string; read_state: number; items: { item_id: string }[] }[] }
    }
    const thread = async () =>
      (await client.api<Inbox>('/api/v1/direct_v2/inbox/')).body.inbox.threads.find(
        (t) => t.thread_id === threadId,
      )
    expect((await thread())?.read_state).toBe(1)
    const item = (await thread())?.items[0]?.item_id ?? ''
    const seen = (messageId: string) =>
      client.api('/api/graphql', {
        fb_api_req_friendly_name: 'IGDMarkSeenMutation',
        variables: JSON.stringify({ thread_id: threadId, message_id: messageId }),
      })
    expect((await seen('no-such-item')).status).toBe(404)
    expect((await seen(item)).body).toMatchObject({ status: 'ok' })
    expect((await thread())?.read_state).toBe(0)
  })

  it('refuses DMs with feedback_required, "Please wait" and "can\'t receive", and logs what went through', async () => {
    const { account, client } = await signedIn({ behaviour: { maxSendsPerMinute: 1 } })
    const [open, second] = await profiles(
      'canDm=true&verifiedOnlyRequests=false&protected=false&limit=2&offset=40',
    )
    const [closed] = await profiles('canDm=false&limit=1')
    const thread = async (pk: string) =>
      (
        await client.api<{ thread_id: string }>('/api/v1/direct_v2/create_group_thread/', {
          recipient_users: JSON.stringify([pk]),
        })
      ).body.thread_id
    const say = async (threadId: string, text: string) =>
      client.api('/api/graphql', {
        fb_api_req_friendly_name: 'IGDirectTextSendMutation',
        variables: JSON.stringify({
          thread_id: threadId,
          text,
          offline_threading_id: String(Date.now()) + String(Math.random()).slice(2, 8),
        }),
      })
    expect((await say(await thread(open?.id ?? ''), 'Hi')).status).toBe(200)
    expect((await say(await thread(second?.id ?? ''), 'Hi')).body).toMatchObject({
      message: 'feedback_required',
      feedback_title: 'This action was blocked. Please try again later.',
    })
    await json(app.base, `/__sandbox/accounts/${account.username}`, {
      method: 'PATCH',
      body: { unblock: true, behaviour: { maxSendsPerMinute: 50, dailyDmLimit: 1 } },
    })
    expect(await say(await thread(second?.id ?? ''), 'Hi')).toMatchObject({
      status: 429,
      body: { message: 'Please wait a few minutes before you try again.' },
    })
    await json(app.base, `/__sandbox/accounts/${account.username}`, {
      method: 'PATCH',
      body: { behaviour: { dailyDmLimit: 50 } },
    })
    expect((await say(await thread(closed?.id ?? ''), 'Hi')).body).toMatchObject({
      message: expect.stringContaining("can't receive your message"),
    })
    const log = await json<{ deliveries: { recipientUsername: string }[] }>(
      app.base,
      `/__sandbox/deliveries?account=${account.username}`,
    )
    expect(log.body.deliveries.map((d) => d.recipientUsername)).toEqual([open?.username])
  })
})
