// Reading Instagram Direct from its pages, in Chromium against the sandbox, with the direct_v2 JSON
// answering the web page and without it (behaviour webDirectJson 0: an unknown endpoint): the inbox
// rows in their order with their previews, unread marks and requests; a reply the customer already
// read on another device still found by its row; a thread longer than the page draws read whole by
// scrolling; and, stored in the real database, a re-read reports no old message as new, the same
// words written again are new, and the JSON answering later stores no message twice; and the shared
// inbox sync, with the JSON off, finds a reply read on another device by its row (its preview, then
// its place in the list), records it once and stops the lead's follow-up.
import { describe, it } from 'vitest'
import { testInt } from '../../stack/src/test-seed.ts'
import { storeThread } from '../src/inbox/threads.ts'
import { inboxSync } from '../src/jobs/inbox-sync.ts'
import { type InstagramSessionOptions, openInstagramSession } from '../src/platforms/instagram/session.ts'
import type { SessionCookie, ThreadMessage } from '../src/platforms/types.ts'
import { adminDb, createCampaign, createCustomer, createInstagramAccount } from './helpers/fixtures.ts'
import { type IgSandboxAccount, openProfiles, SandboxAdmin, sandboxUrl } from './helpers/sandbox.ts'
import { browserSuite } from './helpers/suite.ts'
import { tickUntilSent } from './helpers/ticks.ts'
import { BROWSER_SUITE } from './helpers/x-session.ts'

const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
const ig = new SandboxAdmin(sandboxUrl('INSTAGRAM_BASE_URL'))
const suite = browserSuite(x, 11_000)

// this file's own recipients, taken before awaiting (tests run concurrently)
let igOffset = 12_000 + testInt('instagram-inbox-page people', 1_000)
function igPeople(count: number) {
  const start = igOffset
  igOffset += count
  return openProfiles(ig, count, start)
}

const FAST: Partial<InstagramSessionOptions> = {
  typing: { delayFactor: 0 },
  timeouts: { navigationMs: 20_000, operationMs: 90_000, confirmMs: 8_000 },
}

type SignedIn = IgSandboxAccount & { sessionCookies: SessionCookie[] }

async function sessionOf(account: SignedIn) {
  const opened = await openInstagramSession(
    { username: account.username, password: account.password, cookies: account.sessionCookies },
    { pool: suite.runner.pool, baseUrl: ig.base, ...FAST },
  )
  if (opened.status !== 'ok') throw new Error(JSON.stringify(opened))
  return opened.session
}

/** A signed-in sandbox account whose direct_v2 JSON answers the web page (1) or not (0). */
async function account(webDirectJson: 0 | 1) {
  const made = await ig.createAccount<SignedIn>({
    twoFactor: false,
    signedIn: true,
    behaviour: { replyShare: 0, webDirectJson },
  })
  return { account: made, session: await sessionOf(made) }
}

const texts = (messages: ThreadMessage[]) => messages.map((m) => `${m.direction}: ${m.text}`)

describe.concurrent.each([
  { json: 'answering', webDirectJson: 1 as const },
  { json: 'not answering', webDirectJson: 0 as const },
])('Instagram inbox from the page, the direct_v2 JSON $json', BROWSER_SUITE, ({ webDirectJson }) => {
  it('lists rows newest first with previews and requests, and finds a reply read on another device', async ({
    expect,
  }) => {
    const { account: own, session } = await account(webDirectJson)
    const [a, b, stranger] = await igPeople(3)
    if (!a || !b || !stranger) throw new Error('no sandbox profiles')
    const since = new Date(Date.now() - 60_000)
    const toA = await session.sendDm({ username: a.username }, 'Hello A')
    expect((await session.sendDm({ username: b.username }, 'Hello B')).status).toBe('sent')
    if (toA.status !== 'sent') throw new Error(JSON.stringify(toA))
    const first = await session.readInbox({ includeRequests: false })
    expect(
      first.map((c) => [c.peer.username, c.lastMessage.text, c.lastMessage.direction, c.unread]),
    ).toEqual([
      [b.username, 'Hello B', 'outgoing', false],
      [a.username, 'Hello A', 'outgoing', false],
    ])
    // the JSON, where it answers, adds the other side's id and the exact time; the page has neither
    expect(first[0]?.peer.id ?? null).toBe(webDirectJson ? b.id : null)
    expect(first[0]?.lastMessage.at === null).toBe(!webDirectJson)

    // A answers and the customer reads it on the phone before the runner looks: not unread any more
    await ig.message({ account: own.username, from: a.username, text: 'Yes please' })
    await ig.call('POST', '/threads/read', { account: own.username, threadId: toA.threadId })
    await ig.message({ account: own.username, from: stranger.username, text: 'Hello there' })
    const second = await session.readInbox()
    expect(
      second.map((c) => [c.peer.username, c.lastMessage.text, c.lastMessage.direction, c.unread, c.request]),
    ).toEqual([
      [a.username, 'Yes please', 'incoming', false, false],
      [b.username, 'Hello B', 'outgoing', false, false],
      [stranger.username, 'Hello there', 'incoming', true, true],
    ])
    const replies = await session.readReplies(since)
    expect(replies.map((r) => [r.peer.username, r.messages.map((m) => m.text)]).sort()).toEqual(
      [
        [a.username, ['Yes please']],
        [stranger.username, ['Hello there']],
      ].sort(),
    )
    await session.close()
  })
})

describe.concurrent('Instagram threads from the page', BROWSER_SUITE, () => {
  it('reads a thread longer than the page draws by scrolling back to its start', async ({ expect }) => {
    const { account: own, session } = await account(0)
    const [lead] = await igPeople(1)
    if (!lead) throw new Error('no sandbox profile')
    let threadId = ''
    for (let i = 1; i <= 45; i++) {
      const made = await ig.message({ account: own.username, from: lead.username, text: `Note ${i}` })
      threadId = String((made as { threadId?: unknown }).threadId ?? '')
    }
    const read = await session.readThread(threadId)
    expect(read.map((m) => m.text)).toEqual(Array.from({ length: 45 }, (_, i) => `Note ${i + 1}`))
    expect(new Set(read.map((m) => m.id)).size).toBe(45)
    expect((await session.readThread(threadId)).map((m) => m.id)).toEqual(read.map((m) => m.id))
    await session.close()
  })

  it('stores no old message as new on a re-read, the same words again as new, and nothing twice once the JSON answers', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const own = await ig.createAccount<SignedIn>({
      twoFactor: false,
      signedIn: true,
      behaviour: { replyShare: 0, webDirectJson: 0 },
    })
    const accountId = await createInstagramAccount(userId, own)
    const [lead] = await igPeople(1)
    if (!lead) throw new Error('no sandbox profile')
    const campaignId = await createCampaign(userId, accountId, [lead], {
      messages: ['Hi {name}, a quick question'],
    })
    await tickUntilSent(() => suite.runner.context(), { campaignId, accountId }, 1)
    const threadId = (await ig.deliveries(own.username))[0]?.threadId ?? ''
    const session = await sessionOf(own)
    const store = (messages: ThreadMessage[]) =>
      storeThread(adminDb(), {
        accountId,
        peerUsername: lead.username,
        threadId,
        platformUnread: true,
        opened: true,
        messages,
      })

    await ig.message({ account: own.username, from: lead.username, text: 'Sounds good' })
    const first = await session.readThread(threadId)
    expect(first[0]?.direction).toBe('outgoing')
    expect(texts(first).slice(1)).toEqual(['incoming: Sounds good'])
    expect(await store(first)).toMatchObject({ newIncoming: 1 })
    // read again: the same ids, nothing new
    const again = await session.readThread(threadId)
    expect(again.map((m) => m.id)).toEqual(first.map((m) => m.id))
    expect(await store(again)).toMatchObject({ inserted: 0, newIncoming: 0 })
    // the same words written once more are a new message
    await ig.message({ account: own.username, from: lead.username, text: 'Sounds good' })
    const repeated = await session.readThread(threadId)
    expect(await store(repeated)).toMatchObject({ inserted: 1, newIncoming: 1 })
    // the JSON answers now: it dates the messages, their ids stay the page's, nothing is stored twice
    await ig.patchAccount(own.username, { behaviour: { webDirectJson: 1 } })
    const dated = await session.readThread(threadId)
    expect(dated.every((m) => m.at !== null)).toBe(true)
    expect(dated.map((m) => m.id)).toEqual(repeated.map((m) => m.id))
    expect(await store(dated)).toMatchObject({ inserted: 0, newIncoming: 0 })
    const { rows } = await adminDb().query<{ direction: string; body: string }>(
      `select m.direction, m.body from public.inbox_messages m join public.inbox_threads t on t.id = m.thread_id
        where t.account_id = $1 order by m.created_at, m.id`,
      [accountId],
    )
    expect(rows.filter((r) => r.direction === 'incoming').map((r) => r.body)).toEqual([
      'Sounds good',
      'Sounds good',
    ])
    expect(rows).toHaveLength(3)
    await session.close()
  })
})

/** The incoming messages stored from the conversation with this person, oldest first. */
async function incomingOf(accountId: string, peer: string): Promise<string[]> {
  const { rows } = await adminDb().query<{ body: string }>(
    `select m.body from public.inbox_messages m join public.inbox_threads t on t.id = m.thread_id
      where t.account_id = $1 and lower(t.peer_username) = lower($2) and m.direction = 'incoming'
      order by m.created_at, m.id`,
    [accountId, peer],
  )
  return rows.map((r) => r.body)
}

describe.concurrent('Instagram inbox.sync with the direct_v2 JSON off', BROWSER_SUITE, () => {
  it('finds a reply read on another device, records it once, stops the follow-up, and a same-words reply by its row moving up', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const own = await ig.createAccount<SignedIn>({
      twoFactor: false,
      signedIn: true,
      behaviour: { replyShare: 0, webDirectJson: 0 },
    })
    const accountId = await createInstagramAccount(userId, own)
    const [lead, other] = await igPeople(2)
    if (!lead || !other) throw new Error('no sandbox profiles')
    const campaignId = await createCampaign(userId, accountId, [lead, other], {
      messages: ['Hi {name}, a quick question'],
      followUpMessages: ['Just bumping this.'],
      followUpDays: 1,
    })
    // the sends are not this test's subject: a DM a loaded machine defers goes in the next tick
    await tickUntilSent(() => suite.runner.context(), { campaignId, accountId }, 2)
    const threadOf = async (peer: string) =>
      (await ig.deliveries(own.username)).find((d) => d.recipientUsername === peer)?.threadId ?? ''

    // the lead answers and the customer opens it on the phone first: not unread, and no row is dated
    await ig.message({ account: own.username, from: lead.username, text: 'Sounds good' })
    await ig.call('POST', '/threads/read', { account: own.username, threadId: await threadOf(lead.username) })
    expect(await inboxSync(suite.runner.context(), { accountId })).toMatchObject({ opened: 1, replies: 1 })
    expect(await incomingOf(accountId, lead.username)).toEqual(['Sounds good'])
    const { rows: leads } = await adminDb().query<{
      username: string
      reply_text: string | null
      next_send_at: Date | null
    }>(
      `select lower(ltrim(username, '@')) as username, reply_text, next_send_at
         from public.campaign_leads where campaign_id = $1`,
      [campaignId],
    )
    const byName = new Map(leads.map((l) => [l.username, l]))
    expect(byName.get(lead.username.toLowerCase())).toEqual({
      username: lead.username.toLowerCase(),
      reply_text: 'Sounds good',
      next_send_at: null,
    })
    // the lead who did not answer still gets the follow-up
    expect(byName.get(other.username.toLowerCase())?.next_send_at).toBeInstanceOf(Date)

    // read again with nothing new: no thread opened, nothing reported as new
    expect(await inboxSync(suite.runner.context(), { accountId })).toMatchObject({ replies: 0 })
    expect(await incomingOf(accountId, lead.username)).toEqual(['Sounds good'])

    // the other lead writes, then the lead writes the same words again, each read on the phone:
    // the lead's preview is the stored one, but the row moved above the other's
    await ig.message({ account: own.username, from: other.username, text: 'Thanks!' })
    await ig.call('POST', '/threads/read', {
      account: own.username,
      threadId: await threadOf(other.username),
    })
    expect(await inboxSync(suite.runner.context(), { accountId })).toMatchObject({ opened: 1, replies: 1 })
    await ig.message({ account: own.username, from: lead.username, text: 'Sounds good' })
    await ig.call('POST', '/threads/read', { account: own.username, threadId: await threadOf(lead.username) })
    expect(await inboxSync(suite.runner.context(), { accountId })).toMatchObject({ opened: 1 })
    expect(await incomingOf(accountId, lead.username)).toEqual(['Sounds good', 'Sounds good'])
    expect(await incomingOf(accountId, other.username)).toEqual(['Thanks!'])
  })
})
