// At most once, on every platform: one table of sending cases run by the real campaign.tick in
// Chromium against the X and the Instagram sandbox. Each case counts the DMs in the sandbox's own
// delivery log, not only our rows: a send that succeeds is recorded once; a page that fails before
// send was pressed is retried later and delivered once; a failure after send was pressed is
// `uncertain`, never resent blindly, and settled by reading the thread (delivered → sent, missing →
// sent again once, with the same text); a runner that died mid-send leaves a lead `sending` that is
// checked in the thread before anything else; two ticks of the same campaign at once send one DM.
import { describe, it } from 'vitest'
import { campaignTick } from '../src/jobs/campaign-tick.ts'
import { claimIntent, nextDueLead } from '../src/sending/intent.ts'
import { loadAccount } from '../src/sessions/open.ts'
import {
  adminDb,
  createCampaign,
  createCustomer,
  createInstagramAccount,
  createXAccount,
  leadsOf,
  logsOf,
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

interface Platform {
  name: 'X' | 'Instagram'
  /** Our name for it in the database. */
  id: 'twitter' | 'instagram'
  admin: SandboxAdmin
  /** Where the sandbox serves the DM pages (a page fault there stops the send before it is typed). */
  dmPages: string
  /**
   * What the tick makes of a DM that went out while the answer to send was lost or an error: X's
   * adapter cannot confirm it in the same tick (uncertain, settled by reading the thread on the
   * next); Instagram's re-reads the thread's own JSON after send and finds it there at once.
   */
  deliveredWithoutAnswer: 'uncertain' | 'sent'
  /** A sandbox account, signed in, as the customer's account; answers the sandbox username. */
  connect(userId: string): Promise<{ username: string; accountId: string }>
}

const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
const ig = new SandboxAdmin(sandboxUrl('INSTAGRAM_BASE_URL'))
const suite = browserSuite(x, 9000)

// Recipients per platform from this file's own range, taken before awaiting (tests run concurrently).
let igOffset = 6500 + Math.floor(Math.random() * 1500)
function igPeople(count: number): Promise<SandboxProfile[]> {
  const start = igOffset
  igOffset += count
  return openProfiles(ig, count, start)
}

const PLATFORMS: Platform[] = [
  {
    name: 'X',
    id: 'twitter',
    admin: x,
    dmPages: '/i/chat/',
    deliveredWithoutAnswer: 'uncertain',
    async connect(userId) {
      const sandbox = await newXAccount(x)
      return { username: sandbox.username, accountId: await createXAccount(userId, sandbox) }
    },
  },
  {
    name: 'Instagram',
    id: 'instagram',
    admin: ig,
    dmPages: '/direct/',
    deliveredWithoutAnswer: 'sent',
    async connect(userId) {
      const sandbox = await ig.createAccount<IgSandboxAccount>({ behaviour: { replyShare: 0 } })
      return { username: sandbox.username, accountId: await createInstagramAccount(userId, sandbox) }
    },
  },
]

async function setUp(platform: Platform, leadCount: number) {
  const userId = await createCustomer()
  const { username, accountId } = await platform.connect(userId)
  const leads = platform.name === 'X' ? await suite.people(leadCount) : await igPeople(leadCount)
  const campaignId = await createCampaign(userId, accountId, leads)
  const tick = () => campaignTick(suite.runner.context(), { campaignId, accountId })
  const delivered = () => platform.admin.deliveries(username)
  const fault = (body: Record<string, unknown>) => platform.admin.fault({ account: username, ...body })
  const clearFaults = () => platform.admin.call('DELETE', `/faults?account=${encodeURIComponent(username)}`)
  /** Makes the campaign's waiting leads due now (skips the retry backoff). */
  const dueNow = () =>
    adminDb().query(
      `update public.campaign_leads set next_send_at = now() where campaign_id = $1 and state = 'pending'`,
      [campaignId],
    )
  return {
    platform,
    userId,
    username,
    accountId,
    leads,
    campaignId,
    tick,
    delivered,
    fault,
    clearFaults,
    dueNow,
  }
}

type Setup = Awaited<ReturnType<typeof setUp>>

interface Case {
  name: string
  leads: number
  run(t: Setup, expect: import('vitest').ExpectStatic): Promise<void>
}

const CASES: Case[] = [
  {
    name: 'a send that succeeds is recorded once, and a later tick sends it no more',
    leads: 1,
    async run(t, expect) {
      expect(await t.tick()).toMatchObject({ sent: 1 })
      const delivered = await t.delivered()
      expect(delivered.map((d) => d.recipientUsername)).toEqual(t.leads.map((l) => l.username))
      expect((await logsOf(t.campaignId)).map((l) => [l.status, l.message_sent])).toEqual([
        ['sent', delivered[0]?.text],
      ])
      expect((await leadsOf(t.campaignId))[0]).toMatchObject({ state: 'sent', current_step: 1 })
      await t.dueNow()
      expect((await t.tick()).sent).toBeUndefined()
      expect(await t.delivered()).toHaveLength(1)
    },
  },
  {
    name: 'a page that fails before send is pressed: not sent, retried later, delivered once',
    leads: 1,
    async run(t, expect) {
      await t.fault({ target: 'page', mode: 'http_500', path: t.platform.dmPages, count: 3 })
      expect(await t.tick()).toMatchObject({ not_sent: 1 })
      expect(await t.delivered()).toEqual([])
      const [lead] = await leadsOf(t.campaignId)
      expect(lead?.state).toBe('pending')
      expect(lead?.next_send_at?.getTime() ?? 0).toBeGreaterThanOrEqual(Date.now() - 5_000)
      expect((await logsOf(t.campaignId)).map((l) => l.status)).toEqual(['error'])
      await t.clearFaults()
      await t.dueNow()
      expect(await t.tick()).toMatchObject({ sent: 1 })
      expect(await t.delivered()).toHaveLength(1)
      expect((await logsOf(t.campaignId)).map((l) => l.status)).toEqual(['sent'])
    },
  },
  ...(['ack_lost', 'error_after_delivery'] as const).map(
    (mode): Case => ({
      name: `${mode === 'ack_lost' ? 'the answer to send is lost' : 'an error is shown after the DM went out'}: never sent twice, settled as sent from the thread`,
      leads: 1,
      async run(t, expect) {
        await t.fault({ target: 'send', mode })
        if (t.platform.deliveredWithoutAnswer === 'uncertain') {
          expect(await t.tick()).toMatchObject({ uncertain: 1 })
          expect((await leadsOf(t.campaignId))[0]?.state).toBe('uncertain')
          expect((await logsOf(t.campaignId)).map((l) => l.status)).toEqual(['uncertain'])
          expect(await t.tick()).toMatchObject({ settledSent: 1 })
        } else {
          expect(await t.tick()).toMatchObject({ sent: 1 })
        }
        expect((await leadsOf(t.campaignId))[0]).toMatchObject({ state: 'sent', current_step: 1 })
        await t.dueNow()
        expect((await t.tick()).sent).toBeUndefined()
        const delivered = await t.delivered()
        expect(delivered).toHaveLength(1)
        expect((await logsOf(t.campaignId)).map((l) => [l.status, l.message_sent])).toEqual([
          ['sent', delivered[0]?.text],
        ])
      },
    }),
  ),
  {
    name: 'a send that never arrived: uncertain, found missing in the thread, sent again once with the same text',
    leads: 1,
    async run(t, expect) {
      await t.fault({ target: 'send', mode: 'dropped' })
      expect(await t.tick()).toMatchObject({ uncertain: 1 })
      expect(await t.delivered()).toEqual([])
      // not resent blindly: the next tick reads the thread first, and the step waits out the backoff
      expect(await t.tick()).toMatchObject({ settledNotSent: 1 })
      expect(await t.delivered()).toEqual([])
      const [waiting] = await leadsOf(t.campaignId)
      expect(waiting?.state).toBe('pending')
      expect((waiting?.next_send_at?.getTime() ?? 0) - Date.now()).toBeGreaterThan(4 * 60_000)
      await t.dueNow()
      expect(await t.tick()).toMatchObject({ sent: 1 })
      const delivered = await t.delivered()
      expect(delivered).toHaveLength(1)
      expect((await logsOf(t.campaignId)).map((l) => [l.status, l.message_sent])).toEqual([
        ['sent', delivered[0]?.text],
      ])
    },
  },
  {
    name: 'a runner that died right after send left the lead `sending`: checked in the thread, no second DM',
    leads: 2,
    async run(t, expect) {
      // What a killed runner leaves behind: the intent claimed and the DM delivered, nothing recorded.
      const lead = await nextDueLead(suite.runner.db, t.campaignId)
      if (!lead) throw new Error('no due lead')
      const text = 'Sent just before the crash'
      const claimed = await claimIntent(suite.runner.db, {
        lead,
        accountId: t.accountId,
        userId: t.userId,
        platform: t.platform.id,
        text,
      })
      expect(claimed.status).toBe('claimed')
      const used = await suite.runner.sessions.use(t.accountId, 10_000, async (handle) => {
        const account = await loadAccount(suite.runner.db, t.accountId)
        if (!account) throw new Error('no account')
        const opened = await handle.open(account)
        if (opened.status !== 'ok') throw new Error(`no session: ${JSON.stringify(opened)}`)
        return opened.session.sendDm({ username: lead.username }, text)
      })
      expect(used).toMatchObject({ status: 'done', value: { status: 'sent' } })
      expect((await leadsOf(t.campaignId)).find((l) => l.username === lead.username)?.state).toBe('sending')

      expect(await t.tick()).toMatchObject({ settledSent: 1, sent: 1 })
      const delivered = await t.delivered()
      expect(delivered.map((d) => d.recipientUsername).sort()).toEqual(t.leads.map((l) => l.username).sort())
      expect(delivered.filter((d) => d.recipientUsername === lead.username).map((d) => d.text)).toEqual([
        text,
      ])
      expect((await leadsOf(t.campaignId)).map((l) => l.state)).toEqual(['sent', 'sent'])
    },
  },
  {
    name: 'two ticks of the same campaign in the same minute send one DM',
    leads: 1,
    async run(t, expect) {
      const results = await Promise.all([t.tick(), t.tick()])
      expect(results.map((r) => r.sent ?? 0).reduce((a, b) => a + b, 0)).toBe(1)
      expect(await t.delivered()).toHaveLength(1)
      expect((await logsOf(t.campaignId)).map((l) => l.status)).toEqual(['sent'])
      expect((await leadsOf(t.campaignId))[0]?.state).toBe('sent')
    },
  },
]

for (const platform of PLATFORMS) {
  describe.concurrent(`at most once on ${platform.name}`, BROWSER_SUITE, () => {
    for (const c of CASES) {
      it(c.name, async ({ expect }) => {
        await c.run(await setUp(platform, c.leads), expect)
      })
    }
  })
}
