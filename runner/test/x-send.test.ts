// Sending X DMs in Chromium against the X sandbox: the delivery proof from what the page shows (our
// own new row with the exact text, read again for its id; no status marker), every stop signal (88,
// 429, 226, 326, 476), a closed inbox by thread and by profile (the lead skipped), a profile without
// its Message button (a site change), uncertain sends settled by the thread's text below the last
// stored message, reply detection, message requests, and a hung page that must not block.
import { afterAll, beforeAll, describe, it } from 'vitest'
import { testInt } from '../../stack/src/test-seed.ts'
import { BrowserPool } from '../src/browser/pool.ts'
import { LayoutChangedError } from '../src/platforms/layout.ts'
import type { StopSignalError } from '../src/platforms/types.ts'
import { xThreadId } from '../src/platforms/x/send.ts'
import { openProfiles, SandboxAdmin, sandboxUrl } from './helpers/sandbox.ts'
import { BROWSER_SUITE, newXAccount, openX, SHORT_CONFIRM } from './helpers/x-session.ts'

const admin = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
let pool: BrowserPool
let leadOffset = 0
/** Fresh recipients for each test, so no test sees another's threads. */
const leads = (count: number) => {
  const offset = leadOffset
  leadOffset += count // taken before awaiting: tests run concurrently
  return openProfiles(admin, count, offset)
}

beforeAll(() => {
  pool = new BrowserPool()
  leadOffset = 200 + testInt('x-send people', 5000)
})
afterAll(async () => {
  await pool.close()
})

describe.concurrent('X send with delivery confirmation', BROWSER_SUITE, () => {
  it('sends by username (profile → Message), by user id and by thread id, each exactly once', async ({
    expect,
  }) => {
    const account = await newXAccount(admin, { passcode: '2468' })
    const session = await openX(admin, pool, account, { passcode: '2468' })
    const [a, b] = await leads(2)
    if (!a || !b) throw new Error('no leads')
    const byName = await session.sendDm({ username: a.username }, 'Hi there! Quick question about your shop.')
    expect(byName).toMatchObject({ status: 'sent', threadId: xThreadId(account.id, a.id) })
    const byId = await session.sendDm({ userId: b.id }, 'First line\nsecond line ✓ — ünïcödé')
    expect(byId).toMatchObject({ status: 'sent', threadId: xThreadId(account.id, b.id) })
    const again = await session.sendDm({ threadId: xThreadId(account.id, a.id) }, 'A follow-up.')
    expect(again.status).toBe('sent')
    const log = await admin.deliveries(account.username)
    expect(log.map((d) => [d.recipientUsername, d.text])).toEqual([
      [a.username, 'Hi there! Quick question about your shop.'],
      [b.username, 'First line\nsecond line ✓ — ünïcödé'],
      [a.username, 'A follow-up.'],
    ])
    const thread = await session.readThread(xThreadId(account.id, a.id))
    expect(thread.map((m) => [m.direction, m.text])).toEqual([
      ['outgoing', 'Hi there! Quick question about your shop.'],
      ['outgoing', 'A follow-up.'],
    ])
    // the message id is the row's, as the thread shows it
    expect(thread.map((m) => m.id)).toEqual([
      byName.status === 'sent' ? byName.messageId : '',
      again.status === 'sent' ? again.messageId : '',
    ])
    await session.close()
  })

  it('types like a person: each key paced, spaces slower', async ({ expect }) => {
    const account = await newXAccount(admin)
    const session = await openX(admin, pool, account, { typing: { delayFactor: 1 } })
    const [lead] = await leads(1)
    const text = 'Hey there friend'
    const started = Date.now()
    const result = await session.sendDm({ userId: lead?.id }, text)
    const elapsed = Date.now() - started
    expect(result.status).toBe('sent')
    // 16 keys at 40–130 ms plus extra on 2 spaces: at least ~0.76 s of typing
    expect(elapsed).toBeGreaterThan(16 * 40 + 2 * 60)
    await session.close()
  })
})

describe.concurrent('X stop signals on send', BROWSER_SUITE, () => {
  it("a closed inbox, opened by thread or from the profile, skips the lead with X's notice as the reason", async ({
    expect,
  }) => {
    const account = await newXAccount(admin)
    const session = await openX(admin, pool, account)
    const [closed] = await admin.profiles({
      canDm: false,
      limit: 1,
      offset: testInt('x-send closed profile', 100),
    })
    if (!closed) throw new Error('no closed profile')
    const notice = `@${closed.username} has a closed inbox. If you know their X Number you can still message them.`
    const skipped = {
      status: 'failed',
      threadId: xThreadId(account.id, closed.id),
      reason: notice,
      signal: { kind: 'closed_inbox', code: 'closed_inbox', scope: 'lead' },
    }
    expect(await session.sendDm({ userId: closed.id }, 'Hello')).toEqual({
      ...skipped,
      signal: expect.objectContaining(skipped.signal),
    })
    expect(await session.sendDm({ username: closed.username }, 'Hello')).toMatchObject(skipped)
    expect(await admin.deliveries(account.username)).toEqual([])
    const missing = await session.sendDm({ username: 'nobody_here_x' }, 'Hello')
    expect(missing).toMatchObject({ status: 'failed', signal: { kind: 'user_not_found', scope: 'lead' } })
    await session.close()
  })

  it('a profile without a Message button is a site change, not a refusal by the lead', async ({ expect }) => {
    const account = await newXAccount(admin)
    const session = await openX(admin, pool, account)
    // x.com draws Message on every profile but one's own: this page is one the adapter does not know
    const outcome = await session.sendDm({ username: account.username }, 'Hello me').catch((e: unknown) => e)
    expect(outcome).toBeInstanceOf(LayoutChangedError)
    expect(outcome).toMatchObject({ platform: 'x', action: 'send', step: 'profile: message button' })
    expect(await admin.deliveries(account.username)).toEqual([])
    await session.close()
  })

  it('476: a lead who takes requests only from verified senders is skipped', async ({ expect }) => {
    const session = await openX(admin, pool, await newXAccount(admin, { blueVerified: false }))
    const [picky] = await admin.profiles({ canDm: true, verifiedOnlyRequests: true, limit: 1 })
    const result = await session.sendDm({ userId: picky?.id }, 'Hello')
    expect(result).toMatchObject({
      status: 'failed',
      signal: { kind: 'requires_verified', code: '476', scope: 'lead' },
    })
    await session.close()
  })

  it('226: sending too fast, or the same text too often, stops the account', async ({ expect }) => {
    const fast = await newXAccount(admin, { behaviour: { maxSendsPerMinute: 1 } })
    const session = await openX(admin, pool, fast)
    const [a, b, c] = await leads(3)
    expect((await session.sendDm({ userId: a?.id }, 'One')).status).toBe('sent')
    const blocked = await session.sendDm({ userId: b?.id }, 'Two')
    expect(blocked).toMatchObject({
      status: 'failed',
      signal: { kind: 'automation', code: '226', scope: 'account' },
    })
    await session.close()

    const repetitive = await newXAccount(admin, { behaviour: { maxSameText: 1 } })
    const second = await openX(admin, pool, repetitive)
    expect((await second.sendDm({ userId: a?.id }, 'Same words')).status).toBe('sent')
    expect(await second.sendDm({ userId: c?.id }, 'Same words')).toMatchObject({
      status: 'failed',
      signal: { code: '226' },
    })
    expect(await admin.deliveries(repetitive.username)).toHaveLength(1)
    await second.close()
  })

  it('88 / 429: the daily limit and a rate-limited send stop the account', async ({ expect }) => {
    const account = await newXAccount(admin, { behaviour: { dailyDmLimit: 1 } })
    const session = await openX(admin, pool, account)
    const [a, b] = await leads(2)
    expect((await session.sendDm({ userId: a?.id }, 'Only one today')).status).toBe('sent')
    expect(await session.sendDm({ userId: b?.id }, 'Second')).toMatchObject({
      status: 'failed',
      signal: { kind: 'rate_limit', code: '88', scope: 'account' },
    })
    await session.close()

    const other = await newXAccount(admin)
    const s2 = await openX(admin, pool, other)
    await admin.fault({ account: other.username, target: 'send', mode: 'error', code: 429 })
    expect(await s2.sendDm({ userId: a?.id }, 'Hello')).toMatchObject({
      status: 'failed',
      signal: { kind: 'rate_limit' },
    })
    // scoped to GraphQL: the open thread page polls the conversation API too
    await admin.fault({
      account: other.username,
      target: 'api',
      mode: 'error',
      code: 429,
      path: '/i/api/graphql/',
    })
    const error = await s2.scrape({ source: 'keyword', value: 'coffee' }).catch((e: unknown) => e)
    expect((error as StopSignalError).signal).toMatchObject({ kind: 'rate_limit', code: '429' })
    await s2.close()
  })

  it('326: an account locked mid-session stops before anything is typed', async ({ expect }) => {
    const account = await newXAccount(admin)
    const session = await openX(admin, pool, account)
    await admin.patchAccount(account.username, { state: 'locked' })
    const [lead] = await leads(1)
    expect(await session.sendDm({ userId: lead?.id }, 'Hello')).toMatchObject({
      status: 'failed',
      signal: { kind: 'locked', code: '326', scope: 'account' },
    })
    await admin.fault({ account: account.username, target: 'send', mode: 'error', code: 326 })
    await admin.patchAccount(account.username, { state: 'active' })
    expect(await session.sendDm({ userId: lead?.id }, 'Hello')).toMatchObject({
      status: 'failed',
      signal: { code: '326' },
    })
    expect(await admin.deliveries(account.username)).toHaveLength(0)
    await session.close()
  })
})

describe.concurrent('X uncertain sends', BROWSER_SUITE, () => {
  const open = (account: Awaited<ReturnType<typeof newXAccount>>) =>
    openX(admin, pool, account, SHORT_CONFIRM)
  it('a send X stored but never answered is proven from the thread read again, with its id', async ({
    expect,
  }) => {
    const account = await newXAccount(admin)
    const session = await open(account)
    const [lead] = await leads(1)
    await admin.fault({ account: account.username, target: 'send', mode: 'ack_lost' })
    const result = await session.sendDm({ userId: lead?.id }, 'Did this arrive?')
    const delivered = await admin.deliveries(account.username)
    expect(delivered).toHaveLength(1)
    expect(result).toMatchObject({
      status: 'sent',
      threadId: xThreadId(account.id, lead?.id ?? ''),
      messageId: delivered[0]?.id,
    })
    await session.close()
  })

  it('an uncertain send is settled by our row with its text below the last stored message, never from a marker', async ({
    expect,
  }) => {
    const account = await newXAccount(admin)
    const session = await open(account)
    const [lead] = await leads(1)
    const threadId = xThreadId(account.id, lead?.id ?? '')
    const first = await session.sendDm({ userId: lead?.id }, 'Same words twice')
    if (first.status !== 'sent') throw new Error(`first send: ${first.status}`)
    await admin.fault({ account: account.username, target: 'send', mode: 'dropped' })
    const lost = await session.sendDm({ threadId }, 'Same words twice')
    expect(lost.status).toBe('uncertain')
    const since = new Date(Date.now() - 60_000)
    const check = (after: string | null) =>
      session.resolveUncertain({ threadId, text: 'Same words twice', since, after })
    // the earlier row with the same words sits above the last message stored before the send
    expect(await check(first.messageId)).toEqual({ status: 'not_sent' })
    // a stored message the thread no longer shows: the thread cannot tell, it stays uncertain
    expect(await check('00000000-0000-4000-8000-000000000000')).toMatchObject({ status: 'unreadable' })
    // nothing stored before the send: the rows it saw before typing are never it, whatever their text
    const seenBefore = lost.status === 'uncertain' ? lost.seenBefore : undefined
    expect(seenBefore).toEqual([first.messageId])
    const unstored = () =>
      session.resolveUncertain({ threadId, text: 'Same words twice', since, after: null, seenBefore })
    expect(await unstored()).toEqual({ status: 'not_sent' })
    // lands 12 s after the adapter's 3 s confirm window (as above)
    await admin.fault({ account: account.username, target: 'send', mode: 'delayed', delayMs: 15_000 })
    const late = await session.sendDm({ threadId }, 'Same words twice')
    expect(late.status).toBe('uncertain')
    await expect
      .poll(async () => (await admin.deliveries(account.username)).length, { timeout: 30_000 })
      .toBe(2)
    const settled = await check(first.messageId)
    const log = await admin.deliveries(account.username)
    expect(settled).toMatchObject({ status: 'sent', messageId: log[1]?.id })
    expect(await unstored()).toMatchObject({ status: 'sent', messageId: log[1]?.id })
    expect(log.map((d) => d.text)).toEqual(['Same words twice', 'Same words twice'])
    await session.close()
  })

  it('a dropped send is uncertain; reading the thread shows it did not arrive', async ({ expect }) => {
    const account = await newXAccount(admin)
    const session = await open(account)
    const [lead] = await leads(1)
    const since = new Date()
    await admin.fault({ account: account.username, target: 'send', mode: 'dropped' })
    const result = await session.sendDm({ userId: lead?.id }, 'Lost in transit')
    expect(result.status).toBe('uncertain')
    expect(await admin.deliveries(account.username)).toHaveLength(0)
    const threadId = xThreadId(account.id, lead?.id ?? '')
    expect(await session.resolveUncertain({ threadId, text: 'Lost in transit', since })).toEqual({
      status: 'not_sent',
    })
    await session.close()
  })

  it('"Something went wrong" after send is uncertain with the page_error signal', async ({ expect }) => {
    const account = await newXAccount(admin)
    const session = await open(account)
    const [lead] = await leads(1)
    await admin.fault({ account: account.username, target: 'send', mode: 'error_after_delivery' })
    const result = await session.sendDm({ userId: lead?.id }, 'Server hiccup')
    expect(result).toMatchObject({ status: 'uncertain', signal: { kind: 'page_error' } })
    const resolved = await session.resolveUncertain({
      threadId: xThreadId(account.id, lead?.id ?? ''),
      text: 'Server hiccup',
      since: new Date(Date.now() - 60_000),
    })
    expect(resolved.status).toBe('sent')
    await session.close()
  })

  it('a delayed send is uncertain and found later; a send X answers 500 to is uncertain and found missing', async ({
    expect,
  }) => {
    const account = await newXAccount(admin)
    const session = await open(account)
    const [a, b] = await leads(2)
    const since = new Date(Date.now() - 1000)
    // lands 12 s after the adapter's 3 s confirm window, so a loaded machine's slow last look cannot see it
    await admin.fault({ account: account.username, target: 'send', mode: 'delayed', delayMs: 15_000 })
    const delayed = await session.sendDm({ userId: a?.id }, 'Arrives late')
    expect(delayed.status).toBe('uncertain')
    await expect
      .poll(async () => (await admin.deliveries(account.username)).length, { timeout: 30_000 })
      .toBe(1)
    const threadA = xThreadId(account.id, a?.id ?? '')
    expect(await session.resolveUncertain({ threadId: threadA, text: 'Arrives late', since })).toMatchObject({
      status: 'sent',
    })
    await admin.fault({ account: account.username, target: 'send', mode: 'http_500' })
    const failed = await session.sendDm({ userId: b?.id }, 'Server said 500')
    expect(failed).toMatchObject({ status: 'uncertain', signal: { kind: 'page_error' } })
    const threadB = xThreadId(account.id, b?.id ?? '')
    expect(await session.resolveUncertain({ threadId: threadB, text: 'Server said 500', since })).toEqual({
      status: 'not_sent',
    })
    expect((await admin.deliveries(account.username)).map((d) => d.text)).toEqual(['Arrives late'])
    await session.close()
  })

  it('a hung page fails the send before typing within the time limit, and the next send works', async ({
    expect,
  }) => {
    const account = await newXAccount(admin)
    const session = await openX(admin, pool, account, {
      typing: { delayFactor: 0 },
      timeouts: { navigationMs: 6_000, operationMs: 10_000, confirmMs: 10_000 },
    })
    const [lead] = await leads(1)
    await admin.fault({ account: account.username, target: 'page', mode: 'hang', path: '/i/chat/' })
    const started = Date.now()
    const hung = await session.sendDm({ userId: lead?.id }, 'Will this hang?')
    expect(hung.status).toBe('failed')
    expect(Date.now() - started).toBeLessThan(15_000) // navigation limit 6 s; the hard limit would be 20 s
    const after = await session.sendDm({ userId: lead?.id }, 'After the hang')
    expect(after, JSON.stringify(after)).toMatchObject({ status: 'sent' })
    expect((await admin.deliveries(account.username)).map((d) => d.text)).toEqual(['After the hang'])
    await session.close()
  })
})

describe.concurrent('X replies', BROWSER_SUITE, () => {
  it('detects a reply that arrives after a send, and message requests', async ({ expect }) => {
    const account = await newXAccount(admin, {
      behaviour: { replyShare: 1, replyDelayMs: [0, 0], optOutShare: 0 },
    })
    const session = await openX(admin, pool, account)
    const [lead, stranger] = await leads(2)
    const since = new Date(Date.now() - 1000)
    expect((await session.sendDm({ userId: lead?.id }, 'Would you like a demo?')).status).toBe('sent')
    await new Promise((resolve) => setTimeout(resolve, 800))
    await admin.message({
      account: account.username,
      from: stranger?.username ?? '',
      text: 'Hi, saw your profile',
    })
    const inbox = await session.readInbox()
    // the open thread page marks the reply read as it arrives, as x.com does
    expect(inbox.find((c) => c.peer.username === lead?.username)).toMatchObject({
      request: false,
      lastMessage: { direction: 'incoming' },
    })
    expect(inbox.find((c) => c.peer.username === stranger?.username)).toMatchObject({
      request: true,
      lastMessage: { text: 'Hi, saw your profile', direction: 'incoming' },
    })
    const replies = await session.readReplies(since)
    const fromLead = replies.find((r) => r.peer.id === lead?.id)
    expect(fromLead?.messages).toHaveLength(1)
    expect(fromLead?.messages[0]).toMatchObject({ direction: 'incoming', text: expect.any(String) })
    expect(replies.find((r) => r.peer.id === stranger?.id)?.messages[0]?.text).toBe('Hi, saw your profile')
    // X dates messages by a label, to the minute: a minute on, nothing is new
    expect(await session.readReplies(new Date(Date.now() + 60_000))).toEqual([])
    await session.close()
  })
})
