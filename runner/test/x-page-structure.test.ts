// X as it is in 2026, in Chromium against the X sandbox: X Chat lives in an open shadow root that a
// plain document.querySelector does not enter; its composer is React-controlled (a value set without
// an input event is not what gets sent); its network payloads are opaque, so what the runner reads
// comes from the DOM; GraphQL answers 404 with an empty body to a call without the page's
// transaction id or with a stale query id, and scraping goes on after the ids rotate mid-run; a
// renamed marker is a site change (LayoutChangedError) and the page outline leaks nothing personal.
import type { Page } from 'puppeteer-core'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { testInt } from '../../stack/src/test-seed.ts'
import { deepElement, deepEval } from '../src/browser/deep-query.ts'
import { watchNetwork } from '../src/browser/network-events.ts'
import { waitForFirst } from '../src/browser/page-wait.ts'
import { BrowserPool } from '../src/browser/pool.ts'
import { typeLikeHuman } from '../src/browser/typing.ts'
import { within } from '../src/platforms/facts.ts'
import { LayoutChangedError, outlinePage } from '../src/platforms/layout.ts'
import { X_FACTS } from '../src/platforms/x/facts.ts'
import { xThreadId } from '../src/platforms/x/send.ts'
import type { XSession } from '../src/platforms/x/session.ts'
import { openProfiles, SandboxAdmin, sandboxUrl } from './helpers/sandbox.ts'
import { BROWSER_SUITE, newXAccount, openX } from './helpers/x-session.ts'

const admin = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
const { chat } = X_FACTS
let pool: BrowserPool
let leadOffset = 0
const leads = (count: number) => {
  const offset = leadOffset
  leadOffset += count
  return openProfiles(admin, count, offset)
}

beforeAll(() => {
  pool = new BrowserPool()
  leadOffset = 9000 + testInt('x-page-structure people', 3000)
})
afterAll(async () => {
  await pool.close()
})

/** Opens the conversation with a lead on the session's page, as a send does, and hands over the page. */
function onThread<T>(session: XSession, threadId: string, work: (page: Page) => Promise<T>): Promise<T> {
  return session.run('test', 60_000, async (page) => {
    await session.openChatPage(page, `/i/chat/${threadId}`, chat.conversationPanel, 'send', 'test')
    return work(page)
  })
}

describe.concurrent('X Chat in a shadow root', BROWSER_SUITE, () => {
  it("is out of reach of document.querySelector; the adapter's deep queries and puppeteer's >>> find it", async ({
    expect,
  }) => {
    const account = await newXAccount(admin)
    const session = await openX(admin, pool, account)
    const [lead] = await leads(1)
    expect((await session.sendDm({ userId: lead?.id }, 'Shadow hello')).status).toBe('sent')
    const threadId = xThreadId(account.id, lead?.id ?? '')
    const seen = await onThread(session, threadId, async (page) => ({
      plain: await page.evaluate(
        (selectors) => selectors.map((s) => document.querySelector(s) !== null),
        [chat.conversationPanel, chat.messageRow, chat.composer, '[data-testid^="message-text-"]'],
      ),
      host: await page.evaluate((host) => document.querySelector(host)?.shadowRoot?.mode, chat.host),
      deep: await deepEval(
        page,
        within(chat.host, `${chat.messageRow} ${chat.messageWords}`),
        (elements) => elements.map((el) => el.textContent),
        null,
      ),
      // what other readers of the live page use: the sandbox must answer them the same
      puppeteer: await page.$$eval(within(chat.host, `${chat.messageRow} ${chat.messageWords}`), (elements) =>
        elements.map((el) => el.textContent),
      ),
    }))
    expect(seen).toEqual({
      plain: [false, false, false, false],
      host: 'open',
      deep: ['Shadow hello'],
      puppeteer: ['Shadow hello'],
    })
    await session.close()
  })

  it('sends what was typed, not a value set without an input event (React-controlled composer)', async ({
    expect,
  }) => {
    const account = await newXAccount(admin)
    const session = await openX(admin, pool, account)
    const [lead, other] = await leads(2)
    const threadId = xThreadId(account.id, lead?.id ?? '')
    await onThread(session, threadId, async (page) => {
      const composer = await deepElement(page, within(chat.host, chat.composer))
      if (!composer) throw new Error('no composer')
      // an empty composer shows the voice-message button, not send; a bare value does not change that
      await composer.evaluate((el) => {
        ;(el as HTMLTextAreaElement).value = 'Set behind its back'
      })
      expect(await deepElement(page, within(chat.host, chat.sendButton))).toBeNull()
      expect(
        await deepElement(page, within(chat.host, 'button[aria-label="Record voice message"]')),
      ).not.toBeNull()
      // the next render puts back what the component holds (nothing)
      await expect
        .poll(() => composer.evaluate((el) => (el as HTMLTextAreaElement).value), { timeout: 10_000 })
        .toBe('')
      await typeLikeHuman(page, composer, 'Typed by keys', { delayFactor: 0 })
      await composer.evaluate((el) => {
        ;(el as HTMLTextAreaElement).value = 'Injected text'
        el.dispatchEvent(new Event('input', { bubbles: true }))
      })
      const button = await deepElement(page, within(chat.host, chat.sendButton))
      await button?.click()
      await expect
        .poll(async () => (await admin.deliveries(account.username)).map((d) => d.text), { timeout: 20_000 })
        .toEqual(['Typed by keys'])
    })
    // the native setter with an input event is what React sees as typing
    await onThread(session, xThreadId(account.id, other?.id ?? ''), async (page) => {
      const composer = await deepElement(page, within(chat.host, chat.composer))
      await composer?.evaluate((el) => {
        const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set
        setter?.call(el, 'Through the native setter')
        el.dispatchEvent(new Event('input', { bubbles: true }))
      })
      await expect.poll(() => deepElement(page, within(chat.host, chat.sendButton))).not.toBeNull()
      await (await deepElement(page, within(chat.host, chat.sendButton)))?.click()
      await expect
        .poll(async () => (await admin.deliveries(account.username)).map((d) => d.text), { timeout: 20_000 })
        .toEqual(['Typed by keys', 'Through the native setter'])
    })
    await session.close()
  })

  it('draws only what readers of x.com describe: a time label, no datetime, no status icon; Enter is a new line', async ({
    expect,
  }) => {
    const account = await newXAccount(admin)
    const session = await openX(admin, pool, account)
    const [lead] = await leads(1)
    const threadId = xThreadId(account.id, lead?.id ?? '')
    await admin.message({ account: account.username, from: lead?.username ?? '', text: 'A question first' })
    await onThread(session, threadId, async (page) => {
      const composer = await deepElement(page, within(chat.host, chat.composer))
      if (!composer) throw new Error('no composer')
      await typeLikeHuman(page, composer, 'Enter is a new line', { delayFactor: 0 })
      await page.keyboard.press('Enter')
      await typeLikeHuman(page, composer, 'here', { delayFactor: 0 })
      await (await deepElement(page, within(chat.host, chat.sendButton)))?.click()
      // had Enter sent, the first line would have gone out on its own
      await expect
        .poll(async () => (await admin.deliveries(account.username)).map((d) => d.text), { timeout: 20_000 })
        .toEqual(['Enter is a new line\nhere'])
      await expect
        .poll(() => deepEval(page, within(chat.host, chat.messageRow), (rows) => rows.length, null))
        .toBe(2)
      const rows = await deepEval(
        page,
        within(chat.host, chat.messageRow),
        (found) =>
          found.map((row) => ({
            datetime: row.querySelectorAll('time, [datetime]').length,
            icons: row.querySelectorAll('[role="img"]').length,
            label: row.querySelector('[id$="-time"]')?.textContent ?? '',
          })),
        null,
      )
      expect(rows).toEqual([
        { datetime: 0, icons: 0, label: expect.stringMatching(/^\d{1,2}:\d{2}\s[AP]M$/) },
        { datetime: 0, icons: 0, label: expect.stringMatching(/^\d{1,2}:\d{2}\s[AP]M$/) },
      ])
    })
    const inbox = await session.run('test', 60_000, async (page) => {
      await session.openChatPage(page, '/i/chat', chat.inboxPanel, 'inbox', 'test')
      return deepEval(
        page,
        within(chat.host, chat.conversationRow),
        (found) =>
          found.map((row) => ({
            datetime: row.querySelectorAll('time, [datetime]').length,
            label: row.querySelector('[id$="-time"]')?.textContent ?? '',
          })),
        null,
      )
    })
    expect(inbox).toEqual([{ datetime: 0, label: expect.stringMatching(/^\d{1,2}:\d{2}\s[AP]M$/) }])
    // the adapter dates what it reads from those labels and the time it read them
    const [conversation] = await session.readInbox({ includeRequests: false })
    expect(Math.abs(Date.parse(conversation?.lastMessage.at ?? '') - Date.now())).toBeLessThan(5 * 60_000)
    await session.close()
  })

  it('keeps payloads opaque on the network; the runner reads the reply from the decrypted page', async ({
    expect,
  }) => {
    const account = await newXAccount(admin, { passcode: '5150' })
    const session = await openX(admin, pool, account, { passcode: '5150' })
    const [lead] = await leads(1)
    const bodies: Promise<string>[] = []
    // the pool's pages deliver no network events unless they ask (network-events.ts)
    const listen = async (page: Page) => {
      await watchNetwork(page)
      page.on('response', (response) => {
        if (new URL(response.url()).pathname.startsWith('/i/api/1.1/xchat/'))
          bodies.push(response.text().catch(() => ''))
      })
    }
    await listen(await session.page())
    expect((await session.sendDm({ userId: lead?.id }, 'Opaque question?')).status).toBe('sent')
    await admin.message({ account: account.username, from: lead?.username ?? '', text: 'Opaque answer!' })
    await listen(await session.page()) // a send closes its page when it went well: the read opens a new one
    const thread = await session.readThread(xThreadId(account.id, lead?.id ?? ''))
    expect(thread.map((m) => [m.direction, m.text])).toEqual([
      ['outgoing', 'Opaque question?'],
      ['incoming', 'Opaque answer!'],
    ])
    const seen = await Promise.all(bodies)
    expect(seen.length).toBeGreaterThan(0)
    for (const body of seen) {
      expect(body).not.toContain('Opaque')
      expect(body).not.toContain(lead?.username ?? '-')
    }
    await session.close()
  })
})

// One after the other: each test publishes a new release (new query ids) on the shared sandbox, which
// makes the other's captured call stale if they overlap.
describe.sequential('X internal GraphQL', BROWSER_SUITE, () => {
  it('answers 404 with an empty body without the page transaction id, or with a stale query id', async ({
    expect,
  }) => {
    const account = await newXAccount(admin)
    const session = await openX(admin, pool, account)
    const results = await session.run('test', 60_000, async (page) => {
      let call: { url: string; headers: Record<string, string> } | undefined
      await watchNetwork(page)
      page.on('request', (request) => {
        if (request.url().includes('/SearchTimeline?'))
          call ??= { url: request.url(), headers: request.headers() }
      })
      await session.goto(page, '/search?q=coffee&src=typed_query&f=user')
      await expect.poll(() => call, { timeout: 20_000 }).toBeDefined()
      const replay = (headers: Record<string, string>) =>
        page.evaluate(
          async (url, headers) => {
            const response = await fetch(url, { headers, credentials: 'include' })
            return { status: response.status, body: await response.text() }
          },
          call?.url ?? '',
          headers,
        )
      const { 'x-client-transaction-id': transaction, ...rest } = call?.headers ?? {}
      const withIt = await replay({ ...rest, 'x-client-transaction-id': transaction ?? '' })
      const without = await replay(rest)
      await admin.call('POST', '/release')
      const stale = await replay({ ...rest, 'x-client-transaction-id': transaction ?? '' })
      return { transaction, withIt: withIt.status, without, stale }
    })
    expect(results.transaction).toMatch(/^[A-Za-z0-9+/]{90,}$/)
    expect(results.withIt).toBe(200)
    expect(results.without).toEqual({ status: 404, body: '' })
    expect(results.stale).toEqual({ status: 404, body: '' })
    await session.close()
  })

  it('keeps scraping when the query ids rotate mid-run: no page lost, none read twice', async ({
    expect,
  }) => {
    const session = await openX(admin, pool, await newXAccount(admin))
    const [target] = await admin.profiles({ minFollowers: 120, protected: false, limit: 1, offset: 7 })
    if (!target) throw new Error('no target profile')
    const seen: string[] = []
    let cursor: string | null = null
    for (let page = 0; page < 5; page++) {
      // the release changes under the open page (page 3) and between a park and a resume (page 5)
      if (page === 2) await admin.call('POST', '/release')
      if (page === 4) {
        await session.park()
        await admin.call('POST', '/release')
      }
      const result = await session.scrape({ source: 'followers', value: target.username, cursor })
      seen.push(...result.profiles.map((p) => p.platformId))
      cursor = result.nextCursor
      expect(cursor).not.toBeNull()
    }
    expect(seen).toHaveLength(100)
    expect(new Set(seen).size).toBe(100)
    // the same listing read in one go from a fresh session is the same people in the same order
    const check = await openX(admin, pool, await newXAccount(admin))
    const again: string[] = []
    cursor = null
    for (let page = 0; page < 5; page++) {
      const result = await check.scrape({ source: 'followers', value: target.username, cursor })
      again.push(...result.profiles.map((p) => p.platformId))
      cursor = result.nextCursor
    }
    expect(seen).toEqual(again)
    await check.close()
    await session.close()
  })
})

describe.concurrent('X site changes', BROWSER_SUITE, () => {
  it('a renamed ready marker or composer is a LayoutChangedError before send: nothing sent', async ({
    expect,
  }) => {
    const account = await newXAccount(admin)
    const session = await openX(admin, pool, account)
    const [lead] = await leads(1)
    await admin.call('POST', '/site-change', { account: account.username })
    try {
      // before send is pressed a changed page is thrown, for the job's site-change handling
      const panel = await session.sendDm({ userId: lead?.id }, 'During the drill').catch((e: unknown) => e)
      expect(panel).toBeInstanceOf(LayoutChangedError)
      expect(panel).toMatchObject({
        platform: 'x',
        action: 'send',
        step: 'open thread: conversation panel',
        path: `/i/chat/${xThreadId(account.id, lead?.id ?? '')}`,
      })
      await admin.call('POST', '/site-change', {
        account: account.username,
        renames: { 'dm-composer-textarea': 'dm-composer-input' },
      })
      const composer = await session.sendDm({ userId: lead?.id }, 'During the drill').catch((e: unknown) => e)
      expect(composer).toMatchObject({ name: 'LayoutChangedError', step: 'open thread: composer' })
      await admin.call('POST', '/site-change', {
        account: account.username,
        renames: { 'dm-inbox-panel': 'dm-inbox-view' },
      })
      expect(await session.readInbox().catch((e: unknown) => e)).toBeInstanceOf(LayoutChangedError)
      expect(await admin.deliveries(account.username)).toHaveLength(0)
    } finally {
      await fetch(`${admin.base}/__sandbox/site-change?account=${account.username}`, { method: 'DELETE' })
    }
    expect((await session.sendDm({ userId: lead?.id }, 'After the drill')).status).toBe('sent')
    await session.close()
  })

  it('outlines a shadow-root page without message text, names or user ids', async ({ expect }) => {
    const account = await newXAccount(admin, { name: 'Outline Owner' })
    const session = await openX(admin, pool, account)
    const [lead] = await leads(1)
    await session.sendDm({ userId: lead?.id }, 'Secret words in the thread')
    await admin.message({ account: account.username, from: lead?.username ?? '', text: 'Private reply text' })
    const threadId = xThreadId(account.id, lead?.id ?? '')
    const outline = await onThread(session, threadId, async (page) => {
      const reply = await waitForFirst(
        page,
        { reply: { text: /Private reply text/, within: chat.host } },
        20_000,
      )
      if (!reply) throw new Error('the reply did not show in the thread')
      return outlinePage(page)
    })
    const inbox = await session.run('test', 60_000, async (page) => {
      await session.openChatPage(page, '/i/chat', chat.inboxPanel, 'inbox', 'test')
      return outlinePage(page)
    })
    const text = [...outline.lines, ...inbox.lines].join('\n')
    expect(text).toContain('[data-testid=dm-conversation-item-#:#]')
    expect(text).toContain('#shadow-root')
    expect(text).toContain('[data-testid=dm-conversation-panel]')
    expect(text).toContain('[data-testid=message-text-#]')
    for (const secret of [
      'Secret',
      'Private',
      'Outline Owner',
      account.username,
      lead?.username ?? '-',
      lead?.name ?? '-',
      account.id,
      lead?.id ?? '-',
      account.id.slice(0, 6),
    ])
      expect(text).not.toContain(secret)
    await session.close()
  })
})
