// A DM page that never loads (the sandbox holds the thread page unanswered, as a starved runner or
// a stalled network would see it) runs out of time before anything is typed: nothing was attempted,
// so nothing is held against the account. The tick ends with the DM deferred (the campaign's next
// tick a minute later): its log says `deferred`, the account keeps its status and trust, the
// circuit breaker and the customer hear nothing, the dashboard's delivery rate does not move, and
// the lead stays due (no backoff, its attempt given back). Once the page answers, a later tick sends it exactly once. An inbox answer
// whose page runs out of time the same way goes back to the queue and is sent once later.
import { describe, it } from 'vitest'
import { testInt } from '../../stack/src/test-seed.ts'
import { campaignTick } from '../src/jobs/campaign-tick.ts'
import { inboxSync } from '../src/jobs/inbox-sync.ts'
import {
  adminDb,
  createCampaign,
  createCustomer,
  createInstagramAccount,
  createXAccount,
  leadsOf,
  logsOf,
  notificationsOf,
} from './helpers/fixtures.ts'
import {
  type IgSandboxAccount,
  openProfiles,
  SandboxAdmin,
  type SandboxProfile,
  sandboxUrl,
} from './helpers/sandbox.ts'
import { browserSuite } from './helpers/suite.ts'
import { BROWSER_SUITE, newXAccount } from './helpers/x-session.ts'

const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
const ig = new SandboxAdmin(sandboxUrl('INSTAGRAM_BASE_URL'))
// the suite's runner has the production-shaped page deadlines: the hang never answers, so the DM
// page runs out of time whatever the machine's speed, and the sign-in has all the time it needs
const suite = browserSuite(x, 14_000)

interface Platform {
  name: 'X' | 'Instagram'
  admin: SandboxAdmin
  /** Where the sandbox serves the DM pages. */
  dmPages: string
  connect(userId: string): Promise<{ username: string; accountId: string }>
  people(count: number): Promise<SandboxProfile[]>
}

const PLATFORMS: Platform[] = [
  {
    name: 'X',
    admin: x,
    dmPages: '/i/chat/',
    async connect(userId) {
      const sandbox = await newXAccount(x, { behaviour: { replyShare: 0 } })
      return { username: sandbox.username, accountId: await createXAccount(userId, sandbox) }
    },
    people: (count) => suite.people(count),
  },
  {
    name: 'Instagram',
    admin: ig,
    dmPages: '/direct/',
    async connect(userId) {
      const sandbox = await ig.createAccount<IgSandboxAccount>({ behaviour: { replyShare: 0 } })
      return { username: sandbox.username, accountId: await createInstagramAccount(userId, sandbox) }
    },
    people: (count) => openProfiles(ig, count, 8_100 + testInt('dm-page-timeout people', 300)),
  },
]

/** What would count against the account: its status, trust and flag. */
async function accountState(accountId: string) {
  const { rows } = await adminDb().query<{ status: string; flag_reason: string | null; trust_score: number }>(
    'select status, flag_reason, trust_score::float8 as trust_score from public.social_accounts where id = $1',
    [accountId],
  )
  return rows[0]
}

/** What tripBreakerIfNeeded counts: failed or unconfirmed sends of the account. */
async function breakerCount(accountId: string) {
  const { rows } = await adminDb().query<{ n: number }>(
    `select count(*)::int as n from public.dm_logs where account_id = $1 and status in ('uncertain', 'error')`,
    [accountId],
  )
  return rows[0]?.n
}

/** The dashboard's Delivery Rate card, read as the customer (as PostgREST would). */
async function deliveryRate(userId: string): Promise<number> {
  const client = await adminDb().connect()
  try {
    await client.query('begin')
    await client.query(
      `select set_config('request.jwt.claims', $1, true), set_config('role', 'authenticated', true)`,
      [JSON.stringify({ sub: userId, role: 'authenticated' })],
    )
    const { rows } = await client.query<{ delivery_rate: string }>(
      'select delivery_rate from public.dashboard_summary()',
    )
    return Number(rows[0]?.delivery_rate)
  } finally {
    await client.query('rollback')
    client.release()
  }
}

const clearFaults = (admin: SandboxAdmin, username: string) =>
  admin.call('DELETE', `/faults?account=${encodeURIComponent(username)}`)

describe.concurrent('a DM page that runs out of time before send is pressed', BROWSER_SUITE, () => {
  for (const platform of PLATFORMS) {
    it(`on ${platform.name}: deferred without blaming the account, sent once later`, async ({ expect }) => {
      const userId = await createCustomer()
      const { username, accountId } = await platform.connect(userId)
      const [first, second] = await platform.people(2)
      if (!first || !second) throw new Error('no sandbox profiles')
      const campaignId = await createCampaign(userId, accountId, [first, second])
      const tick = () => campaignTick(suite.runner.context(), { campaignId, accountId })
      const setDue = (lead: SandboxProfile, when: string) =>
        adminDb().query(
          `update public.campaign_leads set next_send_at = ${when} where campaign_id = $1 and username = $2`,
          [campaignId, lead.username],
        )

      // one DM delivered first, so the delivery rate has something to lose (100 % of 1)
      await setDue(second, `now() + interval '1 day'`)
      expect(await tick()).toMatchObject({ sent: 1 })
      const rate = await deliveryRate(userId)
      expect(rate).toBe(100)
      const before = await accountState(accountId)
      expect(before?.status).toBe('active')

      await setDue(second, 'now()')
      await platform.admin.fault({
        account: username,
        target: 'page',
        mode: 'hang',
        path: platform.dmPages,
        count: 10,
      })
      const slow = await tick()
      expect(slow).toMatchObject({ deferred: 1 })
      expect(slow.sent).toBeUndefined()
      expect(slow.not_sent).toBeUndefined()
      // the tick ended there, its next one a minute later (a page that keeps hanging does not spin)
      const { rows: next } = await adminDb().query<{ wait_s: number }>(
        'select extract(epoch from next_action_at - internal.now())::float8 as wait_s from public.campaigns where id = $1',
        [campaignId],
      )
      expect(next[0]?.wait_s).toBeGreaterThan(30)

      expect(await accountState(accountId)).toEqual(before)
      expect(await breakerCount(accountId)).toBe(0)
      expect(await notificationsOf(userId)).toEqual([])
      expect(await deliveryRate(userId)).toBe(rate)
      expect((await logsOf(campaignId)).map((l) => [l.target_username, l.status])).toEqual([
        [first.username, 'sent'],
        [second.username, 'deferred'],
      ])
      const { rows: figures } = await adminDb().query<{ failed: number; daily_failed: number }>(
        `select c.messages_failed as failed,
                (select coalesce(sum(s.failed), 0)::int from public.campaign_daily_stats s where s.campaign_id = c.id) as daily_failed
           from public.campaigns c where c.id = $1`,
        [campaignId],
      )
      expect(figures[0]).toEqual({ failed: 0, daily_failed: 0 })
      // the lead stays due: no backoff, and the attempt that never happened is given back
      const waiting = (await leadsOf(campaignId)).find((l) => l.username === second.username)
      expect(waiting).toMatchObject({ state: 'pending', current_step: 0 })
      expect(waiting?.next_send_at?.getTime() ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(Date.now())
      const { rows: attempts } = await adminDb().query<{ attempts: number }>(
        'select attempts from public.campaign_leads where id = $1',
        [waiting?.id],
      )
      expect(attempts[0]?.attempts).toBe(0)
      expect((await platform.admin.deliveries(username)).map((d) => d.recipientUsername)).toEqual([
        first.username,
      ])

      // the page answers again: a later tick sends it, once
      await clearFaults(platform.admin, username)
      expect(await tick()).toMatchObject({ sent: 1 })
      expect((await tick()).sent).toBeUndefined()
      const delivered = await platform.admin.deliveries(username)
      expect(delivered.map((d) => d.recipientUsername)).toEqual([first.username, second.username])
      expect((await logsOf(campaignId)).map((l) => l.status)).toEqual(['sent', 'sent'])
      expect((await accountState(accountId))?.status).toBe('active')
      expect(await deliveryRate(userId)).toBe(100)
    })
  }

  it('on X: an inbox answer goes back to the queue without blaming the account, sent once later', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const sandbox = await newXAccount(x, { behaviour: { replyShare: 0 } })
    const accountId = await createXAccount(userId, sandbox)
    const [lead] = await suite.people(1)
    if (!lead) throw new Error('no sandbox profile')
    const campaignId = await createCampaign(userId, accountId, [lead])
    expect(await campaignTick(suite.runner.context(), { campaignId, accountId })).toMatchObject({ sent: 1 })
    await x.message({ account: sandbox.username, from: lead.username, text: 'Tell me more?' })
    await inboxSync(suite.runner.context(), { accountId })
    const { rows: threads } = await adminDb().query<{ id: string }>(
      'select id from public.inbox_threads where account_id = $1 and peer_username = $2',
      [accountId, lead.username],
    )
    const threadId = threads[0]?.id
    if (!threadId) throw new Error('no inbox thread')
    const body = 'Happy to: we build outreach tools.'
    const { rows: queued } = await adminDb().query<{ id: string }>(
      `insert into public.inbox_messages (thread_id, user_id, account_id, direction, body, origin, status, dedupe_key)
       values ($1, $2, $3, 'outgoing', $4, 'reachflow', 'queued', 'reply:' || gen_random_uuid()) returning id`,
      [threadId, userId, accountId, body],
    )
    const answerStatus = async () =>
      (
        await adminDb().query<{ status: string }>('select status from public.inbox_messages where id = $1', [
          queued[0]?.id,
        ])
      ).rows[0]?.status
    const before = await accountState(accountId)

    await x.fault({ account: sandbox.username, target: 'page', mode: 'hang', path: '/i/chat/', count: 10 })
    const slow = await inboxSync(suite.runner.context(), { accountId })
    expect(slow).toMatchObject({ answersDeferred: 1, answersSent: 0, answersFailed: 0, answersUncertain: 0 })
    expect(await answerStatus()).toBe('queued')
    expect(await accountState(accountId)).toEqual(before)
    // the reply and the campaign's end (the scheduler's minute may close it, its one lead messaged)
    // are news; nothing about the account or a failed send is
    const news = new Set(['lead_replied', 'campaign_completed'])
    expect((await notificationsOf(userId)).filter((n) => !news.has(n.type))).toEqual([])
    const answered = async () =>
      (await x.deliveries(sandbox.username)).filter((d) => d.text === body).map((d) => d.recipientUsername)
    expect(await answered()).toEqual([])

    await clearFaults(x, sandbox.username)
    expect(await inboxSync(suite.runner.context(), { accountId })).toMatchObject({ answersSent: 1 })
    await inboxSync(suite.runner.context(), { accountId })
    expect(await answered()).toEqual([lead.username])
    expect(await answerStatus()).toBe('sent')
  })
})
