// The X adapter in Chromium (WebDriver BiDi) against the X sandbox: signing in from cookies,
// expired and locked sessions, the X Chat passcode (right, wrong and never guessed, locked), and
// scraping every source with cursors and the rate limit.
import { afterAll, beforeAll, describe, it } from 'vitest'
import { BrowserPool } from '../src/browser/pool.ts'
import { StopSignalError } from '../src/platforms/types.ts'
import { parseXCookies } from '../src/platforms/x/cookies.ts'
import { openXSession } from '../src/platforms/x/session.ts'
import { openProfiles, SandboxAdmin, sandboxUrl } from './helpers/sandbox.ts'
import { BROWSER_SUITE, FAST, newXAccount, openX } from './helpers/x-session.ts'

const admin = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
let pool: BrowserPool

beforeAll(() => {
  pool = new BrowserPool()
})
afterAll(async () => {
  await pool.close()
})

describe.concurrent('X sign-in from cookies', BROWSER_SUITE, () => {
  it('opens /home with the account and reads who is signed in', async ({ expect }) => {
    const account = await newXAccount(admin, { name: 'Cookie Tester' })
    const session = await openX(admin, pool, account)
    expect(session.user).toEqual({ id: account.id, username: account.username, name: 'Cookie Tester' })
    expect((await session.exportCookies()).map((c) => c.name)).toEqual(
      expect.arrayContaining(['auth_token', 'ct0']),
    )
    await session.close()
  })

  it('reports an expired session (login page) and a locked one (/account/access)', async ({ expect }) => {
    for (const [state, status, code] of [
      ['expired', 'expired', '32'],
      ['locked', 'locked', '326'],
    ] as const) {
      const account = await newXAccount(admin, { state })
      const parsed = parseXCookies(account.cookies)
      if (!parsed.ok) throw new Error(parsed.error)
      const result = await openXSession(parsed.value, { pool, baseUrl: admin.base, ...FAST })
      expect(result).toMatchObject({ status, signal: { code, scope: 'account' } })
    }
  })
})

describe.concurrent('X Chat passcode', BROWSER_SUITE, () => {
  it('unlocks with the right passcode, after which chat pages open directly', async ({ expect }) => {
    const account = await newXAccount(admin, { passcode: '4821' })
    const session = await openX(admin, pool, account, { passcode: '4821' })
    expect(await session.unlockChat()).toEqual({ status: 'unlocked' })
    expect(await session.unlockChat()).toEqual({ status: 'not_needed' })
    await session.close()
  })

  it('enters a wrong passcode once, reports it and never guesses again', async ({ expect }) => {
    const account = await newXAccount(admin, { passcode: '4821' })
    const session = await openX(admin, pool, account, { passcode: '1111' })
    const first = await session.unlockChat()
    expect(first).toMatchObject({
      status: 'wrong_passcode',
      signal: { kind: 'chat_locked', scope: 'account' },
    })
    expect(await session.unlockChat()).toMatchObject({ status: 'passcode_required' })
    const [lead] = await openProfiles(admin, 1)
    const send = await session.sendDm({ userId: lead?.id }, 'hello')
    expect(send).toMatchObject({ status: 'failed', signal: { kind: 'chat_locked' } })
    const state = await admin.call<{ chatLocked: boolean }>('GET', `/accounts/${account.username}`)
    expect(state.chatLocked).toBe(false) // one wrong try, not five
    expect(await admin.deliveries(account.username)).toHaveLength(0)
    await session.close()
  })

  it('reports X Chat locked after too many wrong tries, and no passcode when none is stored', async ({
    expect,
  }) => {
    const account = await newXAccount(admin, { passcode: '4821' })
    await admin.patchAccount(account.username, { chatLocked: true })
    const session = await openX(admin, pool, account, { passcode: '4821' })
    expect(await session.unlockChat()).toMatchObject({ status: 'chat_locked' })
    await session.close()
    const other = await newXAccount(admin, { passcode: '4821' })
    const without = await openX(admin, pool, other, { passcode: null })
    expect(await without.unlockChat()).toMatchObject({ status: 'passcode_required' })
    await without.close()
  })
})

describe.concurrent('X scraping', BROWSER_SUITE, () => {
  it('pages through followers and following with Bottom cursors, without repeats', async ({ expect }) => {
    const session = await openX(admin, pool, await newXAccount(admin))
    const [target] = await admin.profiles({ minFollowers: 45, limit: 1, protected: false })
    if (!target) throw new Error('no target profile')
    const seen = new Set<string>()
    let cursor: string | null = null
    let pages = 0
    do {
      const page = await session.scrape({ source: 'followers', value: `@${target.username}`, cursor })
      for (const p of page.profiles) {
        expect(seen.has(p.platformId)).toBe(false)
        seen.add(p.platformId)
      }
      expect(page.rateLimit?.limit).toBe(50)
      cursor = page.nextCursor
      pages++
    } while (cursor && pages < 3)
    expect(seen.size).toBe(Math.min(60, Math.min(target.followers, 3000)))
    const following = await session.scrape({ source: 'following', value: target.username })
    expect(following.profiles).toHaveLength(20)
    expect(following.profiles[0]).toMatchObject({
      platformId: expect.stringMatching(/^\d+$/),
      username: expect.any(String),
      followers: expect.any(Number),
      canDm: expect.any(Boolean),
    })
    await session.close()
  })

  it('reaches the end of a short follower list (a repeated cursor stops it)', async ({ expect }) => {
    const session = await openX(admin, pool, await newXAccount(admin))
    const [small] = (await admin.profiles({ limit: 400, protected: false })).filter(
      (p) => p.followers > 20 && p.followers < 40,
    )
    if (!small) throw new Error('no small profile')
    const first = await session.scrape({ source: 'followers', value: small.username })
    expect(first.profiles).toHaveLength(20)
    const second = await session.scrape({
      source: 'followers',
      value: small.username,
      cursor: first.nextCursor,
    })
    expect(second.profiles).toHaveLength(small.followers - 20)
    const end = await session.scrape({
      source: 'followers',
      value: small.username,
      cursor: second.nextCursor,
    })
    expect(end).toMatchObject({ profiles: [], nextCursor: null })
    await session.close()
  })

  it('finds hashtag authors (Latest) and keyword people, page after page', async ({ expect }) => {
    const session = await openX(admin, pool, await newXAccount(admin))
    const first = await session.scrape({ source: 'hashtag', value: '#saas' })
    const second = await session.scrape({ source: 'hashtag', value: 'saas', cursor: first.nextCursor })
    expect(first.profiles).toHaveLength(20)
    expect(second.profiles).toHaveLength(20)
    const ids = new Set([...first.profiles, ...second.profiles].map((p) => p.platformId))
    expect(ids.size).toBe(40)
    for (const p of first.profiles.slice(0, 5)) {
      const [known] = await admin.profiles({ username: p.username })
      expect(known?.topics.includes('saas') || p.bio.includes('#saas')).toBe(true)
    }

    const people = await session.scrape({ source: 'keyword', value: 'coffee' })
    expect(people.profiles.length).toBeGreaterThan(0)
    for (const p of people.profiles)
      expect(`${p.name} ${p.username} ${p.bio}`.toLowerCase()).toContain('coffee')
    const nothing = await session.scrape({ source: 'keyword', value: 'zzqqxxnothing' })
    expect(nothing).toMatchObject({ profiles: [], nextCursor: null })
    await session.close()
  })

  it('stops with a rate-limit signal when the window is spent (a 429 whose body the page never reads)', async ({
    expect,
  }) => {
    const account = await newXAccount(admin, { behaviour: { scrapeLimit: 2 } })
    const session = await openX(admin, pool, account)
    const [target] = await openProfiles(admin, 1)
    const first = await session.scrape({ source: 'keyword', value: 'coffee' })
    expect(first.rateLimit?.remaining).toBe(1)
    await session.scrape({ source: 'followers', value: target?.username ?? '' })
    const error = await session.scrape({ source: 'hashtag', value: 'ai' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(StopSignalError)
    // taken from the response event: its status and x-rate-limit-* headers (code 88 is in the body)
    expect((error as StopSignalError).signal).toMatchObject({
      kind: 'rate_limit',
      code: '429',
      scope: 'account',
    })
    expect(Date.parse((error as StopSignalError).signal.resetAt ?? '')).toBeGreaterThan(Date.now())
    await session.close()
  })
})
