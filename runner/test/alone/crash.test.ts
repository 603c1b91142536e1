// The crash test: 300 DMs from 5 accounts with compressed pacing while the runner is killed with
// SIGKILL at random moments of its sending 10 times and started again (the scheduler driven every
// second, as pg_cron would every minute at real pacing). The run is bounded in time: ten short
// runner lives, then one last runner settles what the kills left unconfirmed and sends on.
// Afterwards the sandbox's delivery log must show no duplicate, and every lead must be sent
// (exactly one delivery, the logged text), skipped, or still pending (no delivery; a send a kill
// interrupted before it left is due again after its backoff): none lost, none sent twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminDb, closeAdminDb, createCampaign, createCustomer, createXAccount } from '../helpers/fixtures.ts'
import { quietOtherWork, RunnerProcess, waitFor } from '../helpers/process.ts'
import { openProfiles, SandboxAdmin, sandboxUrl, type XSandboxAccount } from '../helpers/sandbox.ts'
import { newXAccount } from '../helpers/x-session.ts'

const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
const ACCOUNTS = 5
const LEADS_PER_ACCOUNT = 60
const KILLS = 10
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

let runner: RunnerProcess | undefined
let scheduler: ReturnType<typeof setInterval> | undefined

let restoreOtherWork: (() => Promise<void>) | undefined
beforeAll(async () => {
  restoreOtherWork = await quietOtherWork()
})
afterAll(async () => {
  clearInterval(scheduler)
  await runner?.stop()
  await restoreOtherWork?.()
  await closeAdminDb()
})

function startRunner(): RunnerProcess {
  return RunnerProcess.start({
    RUNNER_SEND_CONCURRENCY: String(ACCOUNTS),
    RUNNER_UNCERTAIN_CHECK_AFTER_MS: '2000',
    RUNNER_SESSION_IDLE_MS: '600000',
  })
}

/**
 * Each runner is killed at a random moment once it delivered a DM, or after this long on a machine
 * too busy for that (an idle 2-core machine needs a few seconds; 10 kills then take ~2 minutes).
 */
const LIFE_LIMIT_MS = 45_000
/** After the kills, the last runner works undisturbed this long (and until it settled the kills' sends). */
const SETTLE_PHASE_MS = 60_000
/** Leads in one of these states are still open: due (now or later), or being sent or checked. */
const OPEN_STATES = ['pending', 'sending', 'uncertain']

describe('the crash test', () => {
  it(
    `${ACCOUNTS * LEADS_PER_ACCOUNT} DMs, ${KILLS} SIGKILLs: no duplicate, none lost`,
    async () => {
      const db = adminDb()
      const userId = await createCustomer(ACCOUNTS)
      const sandboxes: XSandboxAccount[] = []
      const people = await openProfiles(x, ACCOUNTS * LEADS_PER_ACCOUNT, 0)
      expect(people).toHaveLength(ACCOUNTS * LEADS_PER_ACCOUNT)
      const campaignIds: string[] = []
      for (let i = 0; i < ACCOUNTS; i++) {
        // no replies, and pacing limits far above what compressed pacing does
        const sandbox = await newXAccount(x, {
          behaviour: {
            replyShare: 0,
            maxSendsPerMinute: 10_000,
            maxSameText: 100_000,
            dailyDmLimit: 100_000,
          },
        })
        sandboxes.push(sandbox)
        const accountId = await createXAccount(userId, sandbox)
        const leads = people.slice(i * LEADS_PER_ACCOUNT, (i + 1) * LEADS_PER_ACCOUNT)
        campaignIds.push(
          await createCampaign(userId, accountId, leads, {
            messages: ['Hi {name}, {quick|short} question about {your work|what you do}, @{username}?'],
          }),
        )
      }
      const delivered = async () => {
        let total = 0
        for (const sandbox of sandboxes) total += (await x.deliveries(sandbox.username)).length
        return total
      }
      const countLeads = async (states: string[]) =>
        (
          await db.query<{ n: number }>(
            `select count(*)::int as n from public.campaign_leads where campaign_id = any($1) and state = any($2)`,
            [campaignIds, states],
          )
        ).rows[0]?.n ?? -1

      const claimedSince = async (since: Date) =>
        (
          await db.query<{ n: number }>(
            `select count(*)::int as n from public.dm_logs where campaign_id = any($1) and created_at >= $2`,
            [campaignIds, since],
          )
        ).rows[0]?.n ?? 0

      // the scheduler, every second instead of every minute
      scheduler = setInterval(() => {
        void db.query('select internal.enqueue_due_work()').catch(() => undefined)
      }, 1_000)

      const started = Date.now()
      const killedAt: number[] = []
      runner = startRunner()
      for (let kill = 0; kill < KILLS; kill++) {
        // a random moment of this runner's sending: once it claimed a lead (the intent is written,
        // the DM is being typed or confirmed) or delivered one, plus up to 3 s; on a machine too
        // busy to get that far, at its life limit
        const before = await delivered()
        const bornAt = new Date()
        const lifeEnds = Date.now() + LIFE_LIMIT_MS
        await waitFor(
          'the runner to send',
          async () =>
            (await delivered()) > before || (await claimedSince(bornAt)) > 0 || Date.now() > lifeEnds,
          LIFE_LIMIT_MS + 30_000,
          200,
        )
        await sleep(Math.random() * 3_000)
        killedAt.push(await delivered())
        runner.kill('SIGKILL')
        await runner.exited
        runner = startRunner()
      }
      // undisturbed: the last runner settles every send the kills left unconfirmed (checked in the
      // thread: sent, or due again) and goes on sending; then it stops gracefully
      const lastKill = new Date()
      const leftByKills = async () =>
        (
          await db.query<{ n: number }>(
            `select count(*)::int as n from public.campaign_leads l
             join public.dm_logs d on d.campaign_lead_id = l.id and d.step = l.current_step
            where l.campaign_id = any($1) and l.state in ('sending', 'uncertain') and d.created_at <= $2`,
            [campaignIds, lastKill],
          )
        ).rows[0]?.n ?? -1
      await waitFor(
        'the last runner to settle what the kills left',
        async () => (await leftByKills()) === 0,
        SETTLE_PHASE_MS + 60_000,
        1_000,
      )
      const settleEnds = lastKill.getTime() + SETTLE_PHASE_MS
      while (Date.now() < settleEnds && (await countLeads(OPEN_STATES)) > 0) await sleep(1_000)
      clearInterval(scheduler)
      await runner.stop()
      const seconds = (Date.now() - started) / 1000

      // the sandbox's delivery log: one delivery per (account, recipient), never more
      const log = (await Promise.all(sandboxes.map((s) => x.deliveries(s.username)))).flat()
      const perRecipient = new Map<string, number>()
      for (const d of log)
        perRecipient.set(d.recipientUsername, (perRecipient.get(d.recipientUsername) ?? 0) + 1)
      const duplicates = [...perRecipient].filter(([, n]) => n > 1)
      expect(duplicates).toEqual([])

      // every lead: sent ⇔ exactly one delivery with the logged text; pending or skipped ⇔ no delivery
      const { rows: leads } = await db.query<{ username: string; state: string; text: string | null }>(
        `select l.username, l.state, d.message_sent as text
         from public.campaign_leads l
         left join public.dm_logs d on d.campaign_lead_id = l.id and d.step = 0 and d.status = 'sent'
        where l.campaign_id = any($1)`,
        [campaignIds],
      )
      expect(leads).toHaveLength(ACCOUNTS * LEADS_PER_ACCOUNT)
      const byRecipient = new Map(log.map((d) => [d.recipientUsername, d]))
      const lost: string[] = []
      for (const lead of leads) {
        const delivery = byRecipient.get(lead.username)
        if (lead.state === 'sent') {
          if (!delivery || delivery.text !== lead.text)
            lost.push(`${lead.username}: sent but not delivered as logged`)
        } else if (delivery) {
          lost.push(`${lead.username}: delivered but recorded ${lead.state}`)
        } else if (lead.state !== 'pending' && lead.state !== 'skipped') {
          lost.push(`${lead.username}: left ${lead.state}`)
        }
      }
      expect(lost).toEqual([])
      const states: Record<string, number> = {}
      for (const lead of leads) states[lead.state] = (states[lead.state] ?? 0) + 1
      expect(log.length - (states.uncertain ?? 0)).toBeLessThanOrEqual(states.sent ?? 0)
      expect(log.length).toBeGreaterThanOrEqual(states.sent ?? 0)
      expect(killedAt).toHaveLength(KILLS)
      // the kills interrupted a run that really sent (not a vacuous pass on a runner that never worked)
      expect(states.sent ?? 0).toBeGreaterThanOrEqual(KILLS / 2)

      const settled = await db.query<{ status: string; n: number }>(
        `select status, count(*)::int as n from public.dm_logs where campaign_id = any($1) group by status`,
        [campaignIds],
      )
      console.log(
        `[crash test] ${log.length} DMs delivered in ${seconds.toFixed(0)} s across ${KILLS} SIGKILLs ` +
          `(killed after ${killedAt.join(', ')} deliveries); leads ${JSON.stringify(states)}; ` +
          `dm_logs ${JSON.stringify(Object.fromEntries(settled.rows.map((r) => [r.status, r.n])))}`,
      )
    },
    KILLS * (LIFE_LIMIT_MS + 3_000) + SETTLE_PHASE_MS + 180_000,
  )
})
