// The crash test: 300 DMs from 5 accounts with compressed pacing while the runner is killed with
// SIGKILL at random moments 10 times and started again (the scheduler driven every second, as
// pg_cron would every minute at real pacing). Afterwards the sandbox's delivery log must show no
// duplicate and every lead must be sent (exactly one delivery, the logged text), skipped or still
// pending (no delivery): none lost, none sent twice.
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

beforeAll(async () => {
  await quietOtherWork()
})
afterAll(async () => {
  clearInterval(scheduler)
  await runner?.stop()
  await closeAdminDb()
})

function startRunner(): RunnerProcess {
  return RunnerProcess.start({
    RUNNER_SEND_CONCURRENCY: String(ACCOUNTS),
    RUNNER_UNCERTAIN_CHECK_AFTER_MS: '2000',
    RUNNER_SESSION_IDLE_MS: '600000',
  })
}

describe('the crash test', () => {
  it(`${ACCOUNTS * LEADS_PER_ACCOUNT} DMs, ${KILLS} SIGKILLs: no duplicate, none lost`, async () => {
    const db = adminDb()
    const userId = await createCustomer(ACCOUNTS)
    const sandboxes: XSandboxAccount[] = []
    const campaigns: { id: string; accountId: string; sandbox: XSandboxAccount }[] = []
    const people = await openProfiles(x, ACCOUNTS * LEADS_PER_ACCOUNT, 0)
    expect(people).toHaveLength(ACCOUNTS * LEADS_PER_ACCOUNT)
    for (let i = 0; i < ACCOUNTS; i++) {
      // no replies, and pacing limits far above what compressed pacing does
      const sandbox = await newXAccount(x, {
        behaviour: { replyShare: 0, maxSendsPerMinute: 10_000, maxSameText: 100_000, dailyDmLimit: 100_000 },
      })
      sandboxes.push(sandbox)
      const accountId = await createXAccount(userId, sandbox)
      const leads = people.slice(i * LEADS_PER_ACCOUNT, (i + 1) * LEADS_PER_ACCOUNT)
      const id = await createCampaign(userId, accountId, leads, {
        messages: ['Hi {name}, {quick|short} question about {your work|what you do}, @{username}?'],
      })
      campaigns.push({ id, accountId, sandbox })
    }
    const campaignIds = campaigns.map((c) => c.id)
    const delivered = async () => {
      let total = 0
      for (const sandbox of sandboxes) total += (await x.deliveries(sandbox.username)).length
      return total
    }
    const unfinished = async () =>
      (
        await db.query<{ n: number }>(
          `select count(*)::int as n from public.campaign_leads
            where campaign_id = any($1) and state not in ('sent', 'skipped', 'failed')`,
          [campaignIds],
        )
      ).rows[0]?.n ?? -1

    // the scheduler, every second instead of every minute
    scheduler = setInterval(() => {
      void db.query('select internal.enqueue_due_work()').catch(() => undefined)
    }, 1_000)

    const started = Date.now()
    const killedAt: number[] = []
    runner = startRunner()
    for (let kill = 0; kill < KILLS; kill++) {
      // let it get going, then kill it at a random moment of its work
      const before = await delivered()
      await waitFor('DMs to flow', async () => (await delivered()) >= before + 3, 120_000, 200)
      await sleep(Math.random() * 2_500)
      killedAt.push(await delivered())
      runner.kill('SIGKILL')
      await runner.exited
      runner = startRunner()
    }
    await waitFor('every lead to be settled', async () => (await unfinished()) === 0, 300_000, 1_000)
    clearInterval(scheduler)
    await runner.stop()
    const seconds = (Date.now() - started) / 1000

    // the sandbox's delivery log: one delivery per (account, recipient), never more
    const log = (await Promise.all(sandboxes.map((s) => x.deliveries(s.username)))).flat()
    const perRecipient = new Map<string, number>()
    for (const d of log) perRecipient.set(d.recipientUsername, (perRecipient.get(d.recipientUsername) ?? 0) + 1)
    const duplicates = [...perRecipient].filter(([, n]) => n > 1)
    expect(duplicates).toEqual([])

    // every lead: sent ⇔ exactly one delivery with the logged text; otherwise no delivery at all
    const { rows: leads } = await db.query<{ username: string; state: string; text: string | null; account: string }>(
      `select l.username, l.state, d.message_sent as text, a.username as account
         from public.campaign_leads l
         join public.campaigns c on c.id = l.campaign_id
         join public.social_accounts a on a.id = c.account_id
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
        if (!delivery || delivery.text !== lead.text) lost.push(`${lead.username}: sent but not delivered as logged`)
      } else if (delivery) {
        lost.push(`${lead.username}: delivered but recorded ${lead.state}`)
      }
    }
    expect(lost).toEqual([])
    const states = leads.reduce<Record<string, number>>((acc, l) => ({ ...acc, [l.state]: (acc[l.state] ?? 0) + 1 }), {})
    expect(Object.keys(states).every((s) => ['sent', 'skipped', 'failed'].includes(s))).toBe(true)
    expect(log.length).toBe(states.sent ?? 0)

    const settled = await db.query<{ status: string; n: number }>(
      `select status, count(*)::int as n from public.dm_logs where campaign_id = any($1) group by status`,
      [campaignIds],
    )
    console.log(
      `[crash test] ${log.length} DMs delivered in ${seconds.toFixed(0)} s across ${KILLS} SIGKILLs ` +
        `(killed after ${killedAt.join(', ')} deliveries); leads ${JSON.stringify(states)}; ` +
        `dm_logs ${JSON.stringify(Object.fromEntries(settled.rows.map((r) => [r.status, r.n])))}`,
    )
  })
})
