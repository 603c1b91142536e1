// The crash test: 300 DMs from 5 accounts with compressed pacing while the runner is killed with
// SIGKILL 10 times and started again (the scheduler driven every second, as pg_cron would every
// minute at real pacing). The kills are spread over the run (each after a random number of the run's
// deliveries) and each lands while a DM is in flight: once an intent is written (the lead is
// `sending`: the DM is being typed or confirmed), after a random jitter. Typing is human-like but
// compressed, so a DM is in flight for a few seconds. Afterwards one last runner settles what the
// kills left unconfirmed and sends on. The sandbox's delivery log must show no duplicate, and every
// lead must be sent (exactly one delivery, the logged text), skipped, or still pending (no
// delivery; a send a kill interrupted before it left is due again after its backoff): none lost,
// none sent twice. The test counts the kills that really interrupted a send and requires most did.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testRandom } from '../../../stack/src/test-seed.ts'
import { adminDb, closeAdminDb } from '../helpers/fixtures.ts'
import { createSendingFleet, type Fleet } from '../helpers/fleet.ts'
import { quietOtherWork, RunnerProcess, waitFor } from '../helpers/process.ts'
import { SandboxAdmin, sandboxUrl } from '../helpers/sandbox.ts'

const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
const ACCOUNTS = 5
const LEADS_PER_ACCOUNT = 60
const KILLS = 10
/** The kills are spread over the first this many deliveries of the run (of 300). */
const KILL_SPAN = 150
/** Typing at a quarter of human speed: a DM of ~60 characters is typed in ~2 s. */
const TYPING_FACTOR = '0.25'
/** Each kill lands up to this long after an intent was written (typing, pressing send, confirming). */
const JITTER_MS = 2_500
const jitter = testRandom('crash jitter')
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
    RUNNER_TYPING_FACTOR: TYPING_FACTOR,
    RUNNER_UNCERTAIN_CHECK_AFTER_MS: '2000',
    RUNNER_SESSION_IDLE_MS: '600000',
  })
}

/**
 * How long one runner life may wait for its deliveries and for a DM in flight before it is killed
 * anyway (a machine too busy to get there; that kill then does not count as mid-send).
 */
const LIFE_LIMIT_MS = 45_000
/** After the kills, the last runner works undisturbed this long (and until it settled the kills' sends). */
const SETTLE_PHASE_MS = 60_000
/** Leads in one of these states are still open: due (now or later), or being sent or checked. */
const OPEN_STATES = ['pending', 'sending', 'uncertain']

/** Where each kill falls: after this many of the run's deliveries (random, ascending). */
function killPoints(): number[] {
  const random = testRandom('crash kill points')
  return Array.from({ length: KILLS }, () => Math.floor(random() * KILL_SPAN)).sort((a, b) => a - b)
}

/** What a kill interrupted: intents written by the killed runner and left `sending`. */
interface KillRecord {
  afterDeliveries: number
  /** Leads whose DM was in flight (being typed, sent or confirmed) when the runner died. */
  inFlight: number
  /** Of those, DMs the sandbox had already received: killed between delivery and its record. */
  deliveredUnrecorded: number
}

async function sendingLeads(fleet: Fleet, since: Date): Promise<string[]> {
  const { rows } = await adminDb().query<{ username: string }>(
    `select l.username from public.campaign_leads l
       join public.dm_logs d on d.campaign_lead_id = l.id and d.step = l.current_step
      where l.campaign_id = any($1) and l.state = 'sending' and d.sent_at >= $2`,
    [fleet.campaignIds, since],
  )
  return rows.map((r) => r.username)
}

async function dbNow(): Promise<Date> {
  const { rows } = await adminDb().query<{ now: Date }>('select internal.now() as now')
  return rows[0]?.now ?? new Date()
}

/** One runner life: wait for the run to reach the kill point and for a DM in flight, jitter, SIGKILL. */
async function killMidSend(fleet: Fleet, point: number): Promise<KillRecord> {
  const bornAt = await dbNow()
  const lifeEnds = Date.now() + LIFE_LIMIT_MS
  const delivered = async () => (await fleet.deliveries()).length
  await waitFor(
    `the run to reach ${point} deliveries with a DM in flight`,
    async () =>
      Date.now() > lifeEnds ||
      ((await delivered()) >= point && (await sendingLeads(fleet, bornAt)).length > 0),
    LIFE_LIMIT_MS + 15_000,
    100,
  )
  await sleep(jitter() * JITTER_MS)
  const afterDeliveries = await delivered()
  runner?.kill('SIGKILL')
  await runner?.exited
  // the runner is dead: what it left `sending` was in flight at the kill
  const interrupted = await sendingLeads(fleet, bornAt)
  const received = new Set((await fleet.deliveries()).map((d) => d.recipientUsername))
  return {
    afterDeliveries,
    inFlight: interrupted.length,
    deliveredUnrecorded: interrupted.filter((u) => received.has(u)).length,
  }
}

describe('the crash test', () => {
  it(
    `${ACCOUNTS * LEADS_PER_ACCOUNT} DMs, ${KILLS} SIGKILLs mid-send: no duplicate, none lost`,
    async () => {
      const db = adminDb()
      const fleet = await createSendingFleet(x, {
        accounts: ACCOUNTS,
        leadsPerAccount: LEADS_PER_ACCOUNT,
        campaign: {
          messages: ['Hi {name}, {quick|short} question about {your work|what you do}, @{username}?'],
        },
      })
      const { campaignIds } = fleet
      const countLeads = async (states: string[]) =>
        (
          await db.query<{ n: number }>(
            `select count(*)::int as n from public.campaign_leads where campaign_id = any($1) and state = any($2)`,
            [campaignIds, states],
          )
        ).rows[0]?.n ?? -1

      // the scheduler, every second instead of every minute
      scheduler = setInterval(() => {
        void db.query('select internal.enqueue_due_work()').catch(() => undefined)
      }, 1_000)

      const started = Date.now()
      const kills: KillRecord[] = []
      for (const point of killPoints()) {
        runner = startRunner()
        kills.push(await killMidSend(fleet, point))
      }
      runner = startRunner()
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
      // the end of the run: the campaigns pause (a tick stops before its next lead), the DMs in
      // flight finish and record themselves, and the runner settles what stayed unconfirmed (its
      // sweep checks their threads); only then does it stop, so nothing is left mid-send
      clearInterval(scheduler)
      await db.query(`update public.campaigns set status = 'paused' where id = any($1)`, [campaignIds])
      await waitFor(
        'the DMs in flight to finish and be settled',
        async () => (await countLeads(['sending', 'uncertain'])) === 0,
        120_000,
        1_000,
      )
      await runner.stop()
      const seconds = (Date.now() - started) / 1000

      // the sandbox's delivery log: one delivery per recipient, never more
      const log = await fleet.deliveries()
      const perRecipient = new Map<string, number>()
      for (const d of log)
        perRecipient.set(d.recipientUsername, (perRecipient.get(d.recipientUsername) ?? 0) + 1)
      const duplicates = [...perRecipient].filter(([, n]) => n > 1)

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
      const states: Record<string, number> = {}
      for (const lead of leads) states[lead.state] = (states[lead.state] ?? 0) + 1
      const settled = await db.query<{ status: string; n: number }>(
        `select status, count(*)::int as n from public.dm_logs where campaign_id = any($1) group by status`,
        [campaignIds],
      )
      const midSend = kills.filter((k) => k.inFlight > 0).length
      const afterDelivery = kills.filter((k) => k.deliveredUnrecorded > 0).length
      console.log(
        `[crash test] ${log.length} DMs delivered in ${seconds.toFixed(0)} s across ${KILLS} SIGKILLs; ` +
          `${midSend} of ${KILLS} kills landed mid-send (${afterDelivery} between a delivery and its record); ` +
          `killed after ${kills.map((k) => `${k.afterDeliveries} (${k.inFlight} in flight)`).join(', ')} deliveries; ` +
          `leads ${JSON.stringify(states)}; ` +
          `dm_logs ${JSON.stringify(Object.fromEntries(settled.rows.map((r) => [r.status, r.n])))}`,
      )
      expect(duplicates).toEqual([])
      expect(lost).toEqual([])
      expect(log.length - (states.uncertain ?? 0)).toBeLessThanOrEqual(states.sent ?? 0)
      expect(log.length).toBeGreaterThanOrEqual(states.sent ?? 0)

      expect(kills).toHaveLength(KILLS)
      // the kills interrupted a run that really sent, and most of them a DM in flight (not a vacuous
      // pass on a runner killed before it did anything)
      expect(states.sent ?? 0).toBeGreaterThanOrEqual(KILLS / 2)
      expect(midSend).toBeGreaterThanOrEqual(KILLS / 2)
    },
    KILLS * (LIFE_LIMIT_MS + 15_000 + JITTER_MS) + SETTLE_PHASE_MS + 300_000,
  )
})
