// Scale-out: three runner processes on one database share 30 sending accounts; one is
// SIGKILLed while it is sending. Each account's driver is the runner holding its lease (a session
// advisory lock, runner/src/leases.ts); a sampler reads pg_locks every 250 ms to see who holds what.
// Checked: no account ever has two drivers, the survivors take over every account the dead runner
// left with work, the sandbox received no duplicate and lost no DM, and every runner sent while
// accounts waited. Driven by progress (deliveries, lead states), never by how fast the machine is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminDb, closeAdminDb } from '../../../runner/test/helpers/fixtures.ts'
import { quietOtherWork, RunnerProcess, waitFor } from '../../../runner/test/helpers/process.ts'
import { deliveredCount, driveScheduler, startCampaigns, verdict } from './campaign-run.ts'

const RUNNERS = 3
const ACCOUNTS = 30
const LEADS_PER_ACCOUNT = 3
/** Ten ticks at once per runner: the fleet needs all three runners to drive 30 accounts at once. */
const PER_RUNNER = 10

interface Sample {
  at: number
  /** account id → runner id holding its lease */
  holders: Map<string, string>
  /** accounts held by more than one backend (must never happen) */
  doubles: string[]
  /** accounts with a lead due now and no driver */
  waiting: number
}

let restoreOtherWork: (() => Promise<void>) | undefined
const runners: RunnerProcess[] = []

beforeAll(async () => {
  restoreOtherWork = await quietOtherWork()
})
afterAll(async () => {
  await Promise.all(runners.map((r) => r.stop()))
  await restoreOtherWork?.()
  await closeAdminDb()
})

/** Who holds which account lease now (DB time), matched by the runner's own liveness lock. */
async function sample(accountIds: string[], runnerIds: string[]): Promise<Sample> {
  const { rows } = await adminDb().query<{ at: Date; account_id: string; runner_id: string | null }>(
    `select clock_timestamp() as at, a.id as account_id, r.id as runner_id
       from unnest($1::text[]) a (id)
       join pg_catalog.pg_locks al
         on al.locktype = 'advisory' and al.classid = 7301 and al.objid = hashtext(a.id)::oid
        and al.objsubid = 2 and al.granted
       left join pg_catalog.pg_locks rl
         on rl.pid = al.pid and rl.locktype = 'advisory' and rl.classid = 7302 and rl.objsubid = 2 and rl.granted
       left join unnest($2::text[]) r (id) on rl.objid = hashtext(r.id)::oid`,
    [accountIds, runnerIds],
  )
  const holders = new Map<string, string>()
  const doubles: string[] = []
  for (const row of rows) {
    if (holders.has(row.account_id)) doubles.push(row.account_id)
    holders.set(row.account_id, row.runner_id ?? 'unknown')
  }
  const due = await adminDb().query<{ at: Date; account_id: string }>(
    `select clock_timestamp() as at, c.account_id from public.campaign_leads l
       join public.campaigns c on c.id = l.campaign_id
      where c.account_id = any($1::uuid[]) and l.state = 'pending' and l.next_send_at <= internal.now()
      group by c.account_id`,
    [accountIds],
  )
  const waiting = due.rows.filter((row) => !holders.has(row.account_id)).length
  const at = rows[0]?.at.getTime() ?? due.rows[0]?.at.getTime() ?? Date.now()
  return { at, holders, doubles, waiting }
}

describe('runner fleet', () => {
  it(`${RUNNERS} runners, ${ACCOUNTS} accounts, one SIGKILLed mid-send: one driver per account, taken over, no duplicate, none lost, all runners busy`, async () => {
    const run = await startCampaigns(ACCOUNTS, LEADS_PER_ACCOUNT, 4_000)
    for (let i = 0; i < RUNNERS; i++) {
      runners.push(
        RunnerProcess.start({
          RUNNER_SEND_CONCURRENCY: String(PER_RUNNER),
          RUNNER_UNCERTAIN_CHECK_AFTER_MS: '2000',
          // a runner lets an account go soon after its work is done, so the fleet can rebalance
          RUNNER_SESSION_IDLE_MS: '3000',
        }),
      )
    }
    const runnerIds = await Promise.all(runners.map((r) => r.runnerId(180_000)))
    const samples: Sample[] = []
    let sampling = true
    const sampler = (async () => {
      while (sampling) {
        samples.push(await sample(run.accountIds, runnerIds))
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
    })()
    const stopScheduler = driveScheduler()
    let victim = -1
    let killedAt = 0
    const victimAccounts: string[] = []
    try {
      // every runner drives accounts, then the busiest is killed while one of its leads is `sending`
      await waitFor(
        'all three runners to drive accounts',
        async () => {
          const last = samples.at(-1)
          if (!last) return false
          const busy = new Set(last.holders.values())
          return runnerIds.every((id) => busy.has(id))
        },
        300_000,
        250,
      )
      await waitFor(
        'the fleet to deliver its first 10 DMs',
        async () => (await deliveredCount(run)) >= 10,
        300_000,
        250,
      )
      await waitFor(
        'a runner to be mid-send',
        async () => {
          const last = samples.at(-1)
          if (!last) return false
          const { rows } = await adminDb().query<{ account_id: string }>(
            `select c.account_id from public.campaign_leads l join public.campaigns c on c.id = l.campaign_id
              where l.campaign_id = any($1) and l.state = 'sending'`,
            [run.campaignIds],
          )
          for (const { account_id } of rows) {
            const holder = last.holders.get(account_id)
            const index = holder ? runnerIds.indexOf(holder) : -1
            if (index >= 0) {
              victim = index
              return true
            }
          }
          return false
        },
        300_000,
        50,
      )
      const atKill = await sample(run.accountIds, runnerIds)
      for (const [account, holder] of atKill.holders)
        if (holder === runnerIds[victim]) victimAccounts.push(account)
      runners[victim]?.kill('SIGKILL')
      killedAt = atKill.at
      await runners[victim]?.exited
      const deliveredAtKill = await deliveredCount(run)
      console.log(
        `[fleet] killed runner ${victim} holding ${victimAccounts.length} accounts after ${deliveredAtKill} deliveries`,
      )

      await waitFor(
        'the fleet to finish every campaign',
        async () => {
          const { rows } = await adminDb().query<{ open: number; waiting: number }>(
            `select count(*)::int as open,
                    count(*) filter (where state = 'pending' and next_send_at > internal.now())::int as waiting
               from public.campaign_leads
              where campaign_id = any($1) and state in ('pending', 'sending', 'uncertain')`,
            [run.campaignIds],
          )
          const { open = -1, waiting = 0 } = rows[0] ?? {}
          if (open > 0 && open === waiting) {
            // only leads the kill sent back to their retry backoff are left: the test clock skips it
            await adminDb().query(
              `update internal.clock set "offset" = "offset" + greatest(interval '0',
                 (select min(next_send_at) from public.campaign_leads
                   where campaign_id = any($1) and state = 'pending') - internal.now()) + interval '1 second'`,
              [run.campaignIds],
            )
          }
          return open === 0
        },
        600_000,
        1_000,
      ).catch(async (error: Error) => {
        const { rows } = await adminDb().query(
          `select username, state, next_send_at, attempts, last_error from public.campaign_leads
            where campaign_id = any($1) and state <> 'sent'`,
          [run.campaignIds],
        )
        throw new Error(
          `${error.message}; open ${JSON.stringify(rows)}\n${runners.map((r, i) => `runner ${i}:\n${r.tail(20)}`).join('\n')}`,
        )
      })
    } finally {
      stopScheduler()
      sampling = false
      await sampler
      await adminDb().query(`update internal.clock set "offset" = '0'`)
    }

    // exactly one driver: never two backends on one account's lease
    expect(samples.flatMap((s) => s.doubles)).toEqual([])
    expect(samples.length).toBeGreaterThan(10)

    // the survivors took over the dead runner's accounts that still had work
    const { rows: lateLogs } = await adminDb().query<{ account_id: string; created_at: Date }>(
      `select account_id, created_at from public.dm_logs where campaign_id = any($1) order by created_at`,
      [run.campaignIds],
    )
    const survivors = runnerIds.filter((_, i) => i !== victim)
    const holderAt = (account: string, at: number): string | undefined => {
      let found: string | undefined
      for (const s of samples) {
        if (s.at > at) break
        found = s.holders.get(account) ?? found
      }
      return found ?? samples.find((s) => s.at > at && s.holders.has(account))?.holders.get(account)
    }
    const pickup: number[] = []
    for (const account of victimAccounts) {
      const after = lateLogs.filter((l) => l.account_id === account && l.created_at.getTime() > killedAt)
      if (after.length === 0) continue
      const taken = samples.find((s) => s.at > killedAt && survivors.includes(s.holders.get(account) ?? ''))
      expect(taken, `a survivor took account ${account}`).toBeDefined()
      if (taken) pickup.push(taken.at - killedAt)
      for (const log of after) expect(survivors).toContain(holderAt(account, log.created_at.getTime()))
    }
    expect(pickup.length, 'the kill left the dead runner accounts with work').toBeGreaterThan(0)

    // no duplicate, none lost: the sandbox's received messages against the leads
    const result = await verdict(run)
    expect(result.duplicates).toEqual([])
    expect(result.lost).toEqual([])
    expect(result.states.sent).toBe(ACCOUNTS * LEADS_PER_ACCOUNT)

    // work spread: DMs per runner (by the lease holder when each was logged), and no live runner
    // idle while an account with due work had no driver
    const perRunner = new Map<string, number>()
    for (const log of lateLogs) {
      const holder = holderAt(log.account_id, log.created_at.getTime()) ?? 'unknown'
      perRunner.set(holder, (perRunner.get(holder) ?? 0) + 1)
    }
    const counts = runnerIds.map((id) => perRunner.get(id) ?? 0)
    for (const id of runnerIds) expect(perRunner.get(id) ?? 0, `runner ${id} sent`).toBeGreaterThan(0)
    expect(perRunner.get('unknown') ?? 0).toBe(0)
    // idle: a live runner holds no account while an account with a due lead has no driver. Short
    // gaps are the scheduler's and pg-boss's polling; a streak longer than 10 s is a runner left idle.
    const allBusySince =
      samples.find((s) => runnerIds.every((id) => [...s.holders.values()].includes(id)))?.at ?? 0
    let idleStreakMs = 0
    let longestIdleMs = 0
    let idleSince: number | undefined
    for (const s of samples) {
      if (s.at < allBusySince) continue
      const live = s.at < killedAt ? runnerIds : survivors
      const idle = live.some((id) => ![...s.holders.values()].includes(id)) && s.waiting > 0
      if (idle) {
        idleSince ??= s.at
        idleStreakMs = s.at - idleSince
        longestIdleMs = Math.max(longestIdleMs, idleStreakMs)
      } else idleSince = undefined
    }
    console.log(
      `[fleet] ${RUNNERS} runners, ${ACCOUNTS} accounts, ${result.delivered} DMs delivered; DMs per runner ${JSON.stringify(counts)} ` +
        `(runner ${victim} killed); pickup of ${pickup.length} orphaned accounts: ` +
        `first ${Math.min(...pickup)} ms, last ${Math.max(...pickup)} ms; samples ${samples.length}, longest idle-while-waiting ${longestIdleMs} ms`,
    )
    expect(longestIdleMs).toBeLessThan(10_000)
  }, 1_200_000)
})
