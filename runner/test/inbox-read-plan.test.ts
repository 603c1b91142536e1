// An inbox read opens only the conversations whose inbox row can hold a new message from the other
// side (read-plan.ts): against the X sandbox in Chromium, the threads a read loads are counted at
// the adapter (XSession.readThread, one page load each) and the requests page by readInbox's option.
import { describe, it, vi } from 'vitest'
import {
  conversationsToOpen,
  movedUp,
  REQUESTS_EVERY_MS,
  requestsDue,
  requestsRead,
} from '../src/inbox/read-plan.ts'
import { campaignTick } from '../src/jobs/campaign-tick.ts'
import { inboxSync } from '../src/jobs/inbox-sync.ts'
import type { InboxConversation } from '../src/platforms/types.ts'
import { XSession } from '../src/platforms/x/session.ts'
import {
  accountRow,
  adminDb,
  createCampaign,
  createCustomer,
  createXAccount,
  leadsOf,
} from './helpers/fixtures.ts'
import { SandboxAdmin, sandboxUrl } from './helpers/sandbox.ts'
import { browserSuite } from './helpers/suite.ts'
import { BROWSER_SUITE, newXAccount } from './helpers/x-session.ts'

const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
const suite = browserSuite(x, 1000)
const { people } = suite

const threadSpy = vi.spyOn(XSession.prototype, 'readThread')
const gotoSpy = vi.spyOn(XSession.prototype, 'goto')
const inboxSpy = vi.spyOn(XSession.prototype, 'readInbox')

/** What the X adapter loaded for one sandbox account (tests run concurrently, each on its own account). */
function pageLoads(username: string) {
  const mine = <T extends { mock: { contexts: unknown[]; calls: unknown[][] } }>(spy: T) =>
    spy.mock.calls.filter(
      (_, i) => (spy.mock.contexts[i] as XSession).user.username.toLowerCase() === username.toLowerCase(),
    )
  return {
    threads: mine(threadSpy).map((args) => args[0] as string),
    requestPages: mine(inboxSpy).filter((args) => (args[0] as { includeRequests?: boolean })?.includeRequests)
      .length,
    /** Every page load, by path. */
    paths: mine(gotoSpy).map((args) => args[1] as string),
  }
}

describe.concurrent('an inbox read opens only the rows that may hold a reply', BROWSER_SUITE, () => {
  it('after DMs to four leads of whom one replied, the read opens that one thread and records the reply', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const sandbox = await newXAccount(x, { behaviour: { replyShare: 0 } })
    const accountId = await createXAccount(userId, sandbox)
    const leads = await people(4)
    const [keen] = leads
    if (!keen || leads.length !== 4) throw new Error('no leads')
    const campaignId = await createCampaign(userId, accountId, leads, {
      followUpMessages: ['Just bumping this, {name}.'],
    })
    expect((await campaignTick(suite.runner.context(), { campaignId, accountId })).sent).toBe(4)
    await x.message({ account: sandbox.username, from: keen.username, text: 'Sounds good, tell me more' })
    const before = pageLoads(sandbox.username).threads.length

    const sync = await inboxSync(suite.runner.context(), { accountId })
    const opened = pageLoads(sandbox.username).threads.slice(before)
    expect(opened).toHaveLength(1)
    expect(opened[0]).toContain(keen.id)
    expect(sync).toMatchObject({ conversations: 4, opened: 1, replies: 1 })
    const rows = await leadsOf(campaignId)
    expect(rows.find((l) => l.username === keen.username)?.replied_at).not.toBeNull()
    expect(rows.filter((l) => l.replied_at !== null)).toHaveLength(1)
  })

  it('when the only new messages are our own DMs, the read opens no conversation; requests wait for their cadence', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const sandbox = await newXAccount(x, { behaviour: { replyShare: 0 } })
    const accountId = await createXAccount(userId, sandbox, { lastReadMinutesAgo: null })
    const leads = await people(3)
    const campaignId = await createCampaign(userId, accountId, leads)
    const [stranger] = await people(1)
    await x.message({ account: sandbox.username, from: stranger?.username ?? '', text: 'Hi there' })
    // the first read of an account never read before reads the requests as well
    expect(await inboxSync(suite.runner.context(), { accountId })).toMatchObject({ requests: 1 })
    expect(pageLoads(sandbox.username).requestPages).toBe(1)
    expect((await campaignTick(suite.runner.context(), { campaignId, accountId })).sent).toBe(3)
    const before = pageLoads(sandbox.username).threads.length

    const sync = await inboxSync(suite.runner.context(), { accountId })
    expect(pageLoads(sandbox.username).threads.slice(before)).toEqual([])
    expect(pageLoads(sandbox.username).requestPages).toBe(1)
    expect(sync).toMatchObject({ conversations: 3, requests: null, opened: 0, replies: 0 })
    // the count read last time stands until the requests are read again
    expect((await accountRow(accountId)).requests_pending).toBe(1)
  })

  it('what a lead wrote after the last read and before our DM is recorded by the send, as the read skips the thread', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const sandbox = await newXAccount(x, { behaviour: { replyShare: 0 } })
    const accountId = await createXAccount(userId, sandbox)
    const [early] = await people(1)
    if (!early) throw new Error('no lead')
    const campaignId = await createCampaign(userId, accountId, [early])
    expect(await inboxSync(suite.runner.context(), { accountId })).toMatchObject({ replies: 0 })
    await x.message({
      account: sandbox.username,
      from: early.username,
      text: 'Saw your profile, are you hiring?',
    })

    // the tick does not read (the last read is fresh): its send finds the message in the thread
    expect((await campaignTick(suite.runner.context(), { campaignId, accountId })).sent).toBe(1)
    expect((await leadsOf(campaignId))[0]?.replied_at).not.toBeNull()
    const before = pageLoads(sandbox.username).threads.length
    expect(await inboxSync(suite.runner.context(), { accountId })).toMatchObject({ opened: 0 })
    expect(pageLoads(sandbox.username).threads.slice(before)).toEqual([])
    const { rows } = await adminDb().query<{ body: string; direction: string }>(
      `select m.body, m.direction from public.inbox_messages m
         join public.inbox_threads t on t.id = m.thread_id
        where t.account_id = $1`,
      [accountId],
    )
    expect(rows).toContainEqual({ body: 'Saw your profile, are you hiring?', direction: 'incoming' })
  })

  it("a follow-up's reply check loads the thread and the send types into it without loading it again", async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const sandbox = await newXAccount(x, { behaviour: { replyShare: 0 } })
    const accountId = await createXAccount(userId, sandbox)
    const [quiet] = await people(1)
    if (!quiet) throw new Error('no lead')
    const campaignId = await createCampaign(userId, accountId, [quiet], {
      followUpMessages: ['Just bumping this, {name}.'],
    })
    expect((await campaignTick(suite.runner.context(), { campaignId, accountId })).sent).toBe(1)
    await adminDb().query(
      `update public.campaign_leads set next_send_at = internal.now() - interval '1 minute'
        where campaign_id = $1 and next_send_at is not null`,
      [campaignId],
    )
    const before = pageLoads(sandbox.username).paths.length

    expect((await campaignTick(suite.runner.context(), { campaignId, accountId })).sent).toBe(1)
    const loads = pageLoads(sandbox.username).paths.slice(before)
    // the reply check's load, which the send types into, and the re-read that proves the DM went out
    expect(loads.filter((path) => path.includes(quiet.id))).toHaveLength(2)
    const texts = (await x.deliveries(sandbox.username)).map((d) => d.text)
    expect(texts).toEqual([expect.any(String), `Just bumping this, ${quiet.name.split(' ')[0]}.`])
  })
})

describe('deciding from the inbox list', () => {
  const since = new Date('2026-11-27T10:00:00Z')
  const row = (over: Partial<InboxConversation> & { last?: Partial<InboxConversation['lastMessage']> }) => ({
    threadId: 't',
    peer: { id: '2', username: 'lead' },
    unread: false,
    request: false,
    ...over,
    lastMessage: {
      text: 'Hello Lee, loved your post',
      direction: 'outgoing' as const,
      at: '2026-11-27T10:05:00Z',
      ...over.last,
    },
  })
  const sent = new Map([['lead', 'Hello Lee, loved your post about shipping']])

  it('opens unread rows and rows whose newer last message is theirs; skips older rows and our campaign DM', ({
    expect,
  }) => {
    const open = (c: InboxConversation) => conversationsToOpen([c], since, sent).length === 1
    expect(open(row({ unread: true, last: { at: '2026-11-27T09:00:00Z' } }))).toBe(true)
    expect(open(row({ last: { direction: 'incoming', text: 'Yes!' } }))).toBe(true)
    expect(open(row({ last: { direction: null, text: '' } }))).toBe(true)
    expect(open(row({ last: { at: '2026-11-27T09:59:00Z', direction: 'incoming' } }))).toBe(false)
    // the preview of our campaign DM, cut short by the list or not
    expect(open(row({}))).toBe(false)
    expect(open(row({ last: { text: 'Hello Lee, loved your…' } }))).toBe(false)
    expect(open(row({ peer: { id: '2', username: '@Lead' } }))).toBe(false)
  })

  it('opens a row whose last message is ours but not a campaign DM: a reply may sit under it', ({
    expect,
  }) => {
    // the customer wrote on the platform, or answered from the Conversations inbox
    expect(conversationsToOpen([row({ last: { text: 'Sure, call me at 5' } })], since, sent)).toHaveLength(1)
    // no campaign DM to this person in the window
    expect(conversationsToOpen([row({})], since, new Map())).toHaveLength(1)
  })

  it('opens an undated row (X labels older messages only "Nov 3") when their last message changed since we stored it', ({
    expect,
  }) => {
    const undated = (text: string, peer = 'lead') =>
      row({ peer: { id: '2', username: peer }, last: { at: null, direction: 'incoming', text } })
    const stored = new Map([['lead', 'Thanks, tell me more']])
    const open = (c: InboxConversation, dms = new Map<string, string>()) =>
      conversationsToOpen([c], since, dms, stored).length === 1
    // read on another device: no longer unread, no date, but not what the last read stored
    expect(open(undated('One more question'))).toBe(true)
    expect(open(undated('Thanks, tell me more'))).toBe(false)
    // someone we DM'd in the window, never stored (no reply read yet)
    expect(open(undated('Sure!', 'other'), new Map([['other', 'Hi there']]))).toBe(true)
    // a conversation that is none of ours
    expect(open(undated('Lunch?', 'friend'))).toBe(false)
  })

  it('opens a row of theirs that moved up the list since the last read, even with the same preview and no date', ({
    expect,
  }) => {
    // "ok" twice, read on another device: not unread, no date, the preview the last read stored
    const ok = (threadId: string, peer: string) =>
      row({
        threadId,
        peer: { id: peer, username: peer },
        last: { at: null, direction: 'incoming', text: 'ok' },
      })
    const ours = (threadId: string, peer: string) =>
      row({ threadId, peer: { id: peer, username: peer }, last: { at: null, text: 'Hi there' } })
    const stored = new Map([
      ['ann', 'ok'],
      ['bob', 'ok'],
      ['cem', 'Hi there'],
    ])
    const opened = (list: InboxConversation[], order: string[]) =>
      conversationsToOpen(list, since, new Map(), stored, order).map((c) => c.threadId)
    // bob stood below ann and cem, and now tops the list: something newer is in it
    expect(opened([ok('b', 'bob'), ok('a', 'ann'), ours('c', 'cem')], ['a', 'c', 'b'])).toEqual(['b'])
    // the same order as last time: nothing to open
    expect(opened([ok('a', 'ann'), ours('c', 'cem'), ok('b', 'bob')], ['a', 'c', 'b'])).toEqual([])
    // rows pushed down by one that moved up did not move up themselves; a new row is not a move
    expect(opened([ok('n', 'new'), ok('a', 'ann'), ok('b', 'bob')], ['a', 'b'])).toEqual([])
    // our own message on top (a campaign DM just sent) is no reason to open it
    expect(opened([ours('c', 'cem'), ok('a', 'ann')], ['a', 'c'])).toEqual([])
    // no order stored yet (the first read): the preview rule alone
    expect(opened([ok('b', 'bob'), ok('a', 'ann')], [])).toEqual([])
    expect(movedUp([ok('b', 'bob'), ok('a', 'ann'), ours('c', 'cem')], ['a', 'b', 'c'])).toEqual(
      new Set(['b']),
    )
  })

  it('reads the requests on the first read, then again only after the cadence', ({ expect }) => {
    const account = crypto.randomUUID()
    const t0 = new Date('2026-11-27T10:00:00Z')
    expect(requestsDue(account, t0)).toBe(true)
    requestsRead(account, t0)
    expect(requestsDue(account, new Date(t0.getTime() + REQUESTS_EVERY_MS - 1))).toBe(false)
    expect(requestsDue(account, new Date(t0.getTime() + REQUESTS_EVERY_MS))).toBe(true)
    // a clock set back (tests, a restore) reads rather than waits
    expect(requestsDue(account, new Date(t0.getTime() - 1))).toBe(true)
  })

  it('after a restart, accounts read before have their requests read within one cadence, spread by id', ({
    expect,
  }) => {
    const t0 = new Date('2026-11-27T10:00:00Z')
    const accounts = Array.from({ length: 60 }, () => crypto.randomUUID())
    const firstDue = accounts.map((account) => {
      for (let minute = 0; minute <= 15; minute++) {
        if (requestsDue(account, new Date(t0.getTime() + minute * 60_000), true)) return minute
      }
      return Number.POSITIVE_INFINITY
    })
    // every one within the cadence, and not all at the first read (60 accounts over 15 minutes)
    expect(Math.max(...firstDue)).toBeLessThanOrEqual(15)
    expect(firstDue.filter((minute) => minute === 0).length).toBeLessThan(20)
    expect(new Set(firstDue).size).toBeGreaterThan(8)
  })
})
