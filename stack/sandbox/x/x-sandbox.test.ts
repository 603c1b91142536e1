// The X sandbox over HTTP, in-process: demo accounts, verify_credentials answering 404 to cookie
// sessions, redirects of expired and locked sessions, pages that are shells for the bundle, the
// passcode lock, and GraphQL only with the release's query ids and the page's transaction id
// (paging, rate limits). X Chat's encrypted API is x-chat-sandbox.test.ts; what the browser sees is
// the runner's tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { json, listening } from '../test-helpers.ts'
import { startXSandbox } from './app.ts'
import { transactionIdFor } from './release.ts'
import { apiHeaders, chatKeyOf, graphql, pageKeyOf, type TestAccount } from './test-support.ts'

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

  it('answers HEAD / as x.com does (a redirect, not a 404): the runner checks a proxy with it', async () => {
    const answer = await fetch(`${app.base}/`, { method: 'HEAD', redirect: 'manual' })
    expect(answer.status).toBe(302)
    expect(answer.headers.get('location')).toContain('/i/flow/login')
    expect(await answer.text()).toBe('')
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
