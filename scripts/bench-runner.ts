// `npm run bench:runner`: one runner process serving BENCH_ACCOUNTS (default 500) active X accounts
// the way production does, on its own `bench` instance of the stack (dev and test are untouched):
// - every account behind its own proxy, which accepts only that account's login and counts its
//   connections (a login seen on another account's proxy fails the run);
// - production pacing (about 100 DMs per account a day, pacing factor 1) and production runner
//   settings (session idle limit, concurrency, typing), with the test clock running BENCH_SPEEDUP
//   times faster (default 500 / accounts: a smaller fleet asks the runner for what 500 accounts
//   would) and the scheduler's own jobs once a clock minute, inbox syncs included;
// - campaigns' first sends spread over one gap and inbox reads over one interval, as a runner
//   finds a fleet that has been running (not 500 accounts all due at once).
// Reports DMs per minute (the sandbox's delivery log), CPU seconds per DM (runner + Chromium, opens
// included), session opens per minute (the runner's own counter), peak PSS, browsers, duplicates,
// lost sends, inbox syncs, failed campaign ticks and accounts paused, flagged or losing trust against
// the targets. BENCH_STRICT=1: exit 1 when a target is missed (a login seen on another account's
// proxy exits 1 always). BENCH_BUSY_CORE=1: a second process keeps one core busy from the warm-up to
// the end of the measured minutes (a slow machine must make the runner send less, never fail more).
// Every account starts with the session its account test saved (bench/saved-sessions.ts), as a
// connected fleet does; BENCH_SAVED_SESSIONS=0: none (a fleet never signed in).
// BENCH_RUNNER_PROFILE=<dir>: the runner process writes a V8 CPU profile there when it stops.
//   BENCH_MINUTES (default 4) measured minutes after BENCH_WARMUP_S (default 60) seconds of warm-up.
import { execSync } from 'node:child_process'
import { createServer } from 'node:net'
import { cpus, totalmem } from 'node:os'
import { DEFAULT_ADMISSION } from '../runner/src/ops/admission-policy.ts'
import { startBackground, stopBackground } from '../stack/src/cli.ts'
import { stackConfig } from '../stack/src/config.ts'
import { testEnv } from '../stack/src/test-env.ts'
import {
  allowList,
  chatPageLoads,
  closeProxies,
  proxyEveryAccount,
  proxyTraffic,
} from './bench/account-proxies.ts'
import { busyCore } from './bench/busy-core.ts'
import { cpuByKind } from './bench/cpu-by-kind.ts'
import { FastClock } from './bench/fast-clock.ts'
import { accountStates, outcomes } from './bench/runner-outcomes.ts'
import { type AdmissionSample, RunnerSampler } from './bench/runner-sampler.ts'
import { sealConnectedSessions } from './bench/saved-sessions.ts'

const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 500)
const MINUTES = Number(process.env.BENCH_MINUTES ?? 4)
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 60)
const SPEEDUP = Number(process.env.BENCH_SPEEDUP ?? Math.max(1, 500 / ACCOUNTS))
const STRICT = process.env.BENCH_STRICT === '1'
const BUSY_CORE = process.env.BENCH_BUSY_CORE === '1'
const SAVED_SESSIONS = process.env.BENCH_SAVED_SESSIONS !== '0'
/** BENCH_RUNNER_PROFILE=<dir>: the runner writes a V8 CPU profile there when it stops (5 ms samples). */
const PROFILE_DIR = process.env.BENCH_RUNNER_PROFILE
const DMS_PER_DAY = 100
/**
 * An account whose campaign is sending has its inbox read every 15 clock minutes (the scheduler's
 * in-use pace, internal.inbox_syncs_due; 4 minutes only while a conversation goes on).
 */
const SYNC_EVERY_MS = 900_000
/** A due campaign waiting longer than this (real time) in the queue counts as never attempted. */
const LATE_AFTER_MS = 120_000
/** What the pacing asks for: every account's 100 a day, in compressed time. */
const PACED_PER_MINUTE = (ACCOUNTS * DMS_PER_DAY * SPEEDUP) / 1440
const TARGET = { perMinute: PACED_PER_MINUTE * 0.95, pssMb: 3584, cpuPerDm: 0.5 }
const LEADS_PER_ACCOUNT =
  Math.ceil((((WARMUP_S + MINUTES * 60) * SPEEDUP) / (86_400 / DMS_PER_DAY)) * 1.5) + 5

const config = stackConfig('bench')
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
    server.once('error', reject)
  })
}

async function main(): Promise<void> {
  const loadBefore = execSync('uptime').toString().trim()
  const setupStarted = Date.now()
  console.error(`[bench] starting the bench stack (${config.dir})`)
  await startBackground(config, true)
  Object.assign(process.env, testEnv(config))
  // the helpers read the environment when used, so they come after it is set
  const { adminDb, closeAdminDb, EVERY_DAY } = await import('../runner/test/helpers/fixtures.ts')
  const { createSendingFleet } = await import('../runner/test/helpers/fleet.ts')
  const { quietOtherWork, RunnerProcess } = await import('../runner/test/helpers/process.ts')
  const { SandboxAdmin, sandboxUrl } = await import('../runner/test/helpers/sandbox.ts')

  const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
  const db = adminDb()
  const clock = new FastClock(db, SPEEDUP)
  let runner: ReturnType<typeof RunnerProcess.start> | undefined
  let proxies: Awaited<ReturnType<typeof proxyEveryAccount>> = []
  let stopBusyCore = () => {}
  try {
    await quietOtherWork()
    console.error(`[bench] creating ${ACCOUNTS} accounts with ${LEADS_PER_ACCOUNT} leads each`)
    const fleet = await createSendingFleet(x, {
      accounts: ACCOUNTS,
      leadsPerAccount: LEADS_PER_ACCOUNT,
      account: { dailyLimit: DMS_PER_DAY },
      campaign: {
        messages: [
          'Hi {name}, {quick|short} question about {your work|what you do} - open to a chat, @{username}?',
        ],
        schedule: {
          timezone: 'UTC',
          timeFrom: '00:00',
          timeTo: '23:59',
          activeDays: EVERY_DAY,
          randomDaysOff: false,
        },
        dailyLimit: DMS_PER_DAY,
      },
    })
    const { userId } = fleet
    const accountIds = (
      await db.query<{ id: string }>('select id from public.social_accounts where user_id = $1 order by id', [
        userId,
      ])
    ).rows.map((r) => r.id)
    proxies = await proxyEveryAccount(db, accountIds)

    await clock.start()
    if (SAVED_SESSIONS) await sealConnectedSessions(db, accountIds, clock.now())
    await db.query(
      `update public.campaigns set next_action_at = internal.now() + random() * make_interval(secs => $2::float8)
        where user_id = $1`,
      [userId, 86_400 / DMS_PER_DAY],
    )
    await db.query(
      `update public.social_accounts set last_synced_at = internal.now() - random() * make_interval(secs => $2::float8)
        where user_id = $1`,
      [userId, SYNC_EVERY_MS / 1000],
    )
    const healthPort = await freePort()
    runner = RunnerProcess.start(
      {
        // production's settings, where the test helper's defaults differ
        RUNNER_POLL_MS: '2000',
        RUNNER_HEARTBEAT_MS: '10000',
        RUNNER_TYPING_FACTOR: '1',
        RUNNER_PACING_FACTOR: '1',
        RUNNER_UNCERTAIN_CHECK_AFTER_MS: '120000',
        // admission control on, at its production marks (test runners set them out of reach)
        RUNNER_ADMISSION_LAG_MS: String(DEFAULT_ADMISSION.lagHighMs),
        RUNNER_ADMISSION_RUN_QUEUE: process.env.BENCH_RUN_QUEUE ?? String(DEFAULT_ADMISSION.runQueueHigh),
        ...(process.env.BENCH_CONCURRENCY ? { RUNNER_SEND_CONCURRENCY: process.env.BENCH_CONCURRENCY } : {}),
        RUNNER_HEALTH_PORT: String(healthPort),
        RUNNER_ALLOW_PROXY_HOSTS: allowList(proxies),
      },
      PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`, '--cpu-prof-interval=5000'] : [],
    )
    const setupSeconds = (Date.now() - setupStarted) / 1000
    if (BUSY_CORE) stopBusyCore = busyCore()
    console.error(
      `[bench] set up in ${setupSeconds.toFixed(0)} s; clock ×${SPEEDUP}, warming up ${WARMUP_S} s${BUSY_CORE ? ', one core kept busy' : ''}`,
    )
    await runner.runnerId(120_000)
    const sampler = new RunnerSampler(runner.pid, healthPort)
    sampler.start()

    await sleep(WARMUP_S * 1000)
    sampler.loads = [] // the load and admission of the measured minutes only
    sampler.admission = []
    await sampler.readHealth()
    const accountsAtStart = await accountStates(db, userId)
    const start = {
      delivered: (await fleet.deliveries()).length,
      cpu: sampler.cpu.sample(),
      opened: sampler.opened,
      restored: sampler.restored,
      syncsQueued: clock.queued.inboxSyncs,
      chatLoads: chatPageLoads(proxies),
      at: new Date(),
    }
    const perMinute: number[] = []
    let last = start.delivered
    for (let minute = 0; minute < MINUTES; minute++) {
      await sleep(60_000)
      const now = (await fleet.deliveries()).length
      perMinute.push(now - last)
      last = now
      console.error(
        `[bench] minute ${minute + 1}: ${perMinute.at(-1)} DMs, ${sampler.opened} opens and ${sampler.restored} restores so far`,
      )
    }
    await sampler.readHealth()
    const end = {
      chatLoads: chatPageLoads(proxies),
      cpu: sampler.cpu.sample(),
      opened: sampler.opened,
      restored: sampler.restored,
      syncsQueued: clock.queued.inboxSyncs,
      at: new Date(),
    }
    stopBusyCore()
    const seconds = (end.at.getTime() - start.at.getTime()) / 1000
    const minutes = seconds / 60
    sampler.stop()
    const byKind = cpuByKind(start.cpu, end.cpu, seconds, sampler.cpu.kindOf)
    const cpuSeconds = byKind.reduce((sum, k) => sum + k.cpuSeconds, 0)
    const dms = last - start.delivered
    const window = { from: start.at, to: end.at }
    const late = await outcomes(
      db,
      userId,
      [],
      window,
      accountsAtStart,
      LATE_AFTER_MS * SPEEDUP,
      SYNC_EVERY_MS,
    )
    // the end state once the runner has finished what it had in hand
    clock.stop()
    await runner.stop()
    console.error(`[bench] the runner's last lines:\n${runner.tail(20)}`)
    const traffic = proxyTraffic(proxies)
    const result = await outcomes(
      db,
      userId,
      await fleet.deliveries(),
      window,
      accountsAtStart,
      LATE_AFTER_MS * SPEEDUP,
      SYNC_EVERY_MS,
    )
    const lost = result.sentNotDelivered + late.overdueCampaigns
    const rate = dms / minutes
    const cpuPerDm = dms > 0 ? cpuSeconds / dms : Number.POSITIVE_INFINITY
    const met = (ok: boolean) => (ok ? 'met' : 'not met')
    const checks = {
      rate: rate >= TARGET.perMinute,
      pss: sampler.peakPssMb <= TARGET.pssMb,
      cpu: cpuPerDm <= TARGET.cpuPerDm,
      dups: result.duplicates === 0,
      lost: lost === 0,
      proxies: traffic.wrongLogins === 0 && traffic.unused === 0,
      ticks: result.ticksFailed === 0,
      syncs: result.inboxSyncsFailed === 0,
      accounts:
        result.accountsNotActive === 0 && result.accountsTrustDown === 0 && result.accountsStopped === 0,
    }
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length)
    console.log(
      [
        `## Runner (\`npm run bench:runner\`)`,
        '',
        `${ACCOUNTS} active X accounts, each behind its own proxy, on one runner with production settings; 100 DMs per`,
        `account a day at pacing factor 1, the test clock ×${SPEEDUP} (the load of ${Math.round(ACCOUNTS * SPEEDUP)} accounts); ${LEADS_PER_ACCOUNT} leads each;`,
        `set-up ${setupSeconds.toFixed(0)} s, ${WARMUP_S} s warm-up, ${MINUTES} measured minutes.`,
        `Saved sessions: ${SAVED_SESSIONS ? 'every account has the one its account test sealed (a connected fleet, the runner restarted)' : 'none (a fleet never signed in)'}.`,
        `Machine: ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GB, shared with other work; ${BUSY_CORE ? 'a second process kept one core busy from the warm-up to the end of the measured minutes' : "nothing else of the bench's own"}.`,
        '',
        '| measure | result | target |',
        '| --- | --- | --- |',
        `| DMs/min (sandbox delivery log) | ${rate.toFixed(1)} (per minute: ${perMinute.join(', ')}) | ≥ ${TARGET.perMinute.toFixed(1)} (95 % of the ${PACED_PER_MINUTE.toFixed(1)} paced): ${met(checks.rate)} |`,
        `| CPU seconds per DM, runner + Chromium, opens included | ${dms > 0 ? `${cpuPerDm.toFixed(2)} s` : `— (${cpuSeconds.toFixed(0)} CPU-s, no DMs)`} | ≤ ${TARGET.cpuPerDm}: ${met(checks.cpu)} |`,
        `| session opens per minute (runner's count): full sign-ins / restored from the sealed save | ${((end.opened - start.opened) / minutes).toFixed(1)} / ${((end.restored - start.restored) / minutes).toFixed(1)} (${end.opened} / ${end.restored} in all, ${sampler.evicted} evicted) | — |`,
        `| peak PSS, runner + Chromium (RSS sum) | ${sampler.peakPssMb.toFixed(0)} MB (${sampler.peakRssMb.toFixed(0)} MB) | ≤ ${TARGET.pssMb} MB: ${met(checks.pss)} |`,
        `| browser processes / all processes (peak) | ${sampler.peakBrowsers} / ${sampler.peakProcesses} | — |`,
        `| duplicates (leads the sandbox got 2+ DMs for) | ${result.duplicates} | 0: ${met(checks.dups)} |`,
        `| lost: recorded sent, never delivered / due, never attempted | ${result.sentNotDelivered} / ${late.overdueCampaigns} (worst ${((late.worstLateClockMinutes * 60) / SPEEDUP).toFixed(0)} s late) | 0: ${met(checks.lost)} |`,
        `| campaign ticks: done / deferred (no slot, page too slow) / failed | ${result.ticksDone} / ${result.ticksDeferred} / ${result.ticksFailed} | failed 0: ${met(checks.ticks)} |`,
        `| inbox syncs done / queued by the scheduler; accounts behind at the end | ${result.inboxSyncsDone} (${result.inboxSyncsFailed} failed, ${result.inboxSyncsDeferred} deferred, ${result.inboxSyncsSkipped} ended without the session: read by a tick) / ${end.syncsQueued - start.syncsQueued}; ${result.accountsBehindOnInbox} | failed 0: ${met(checks.syncs)} |`,
        `| inbox reads per minute: by inbox.sync / by campaign ticks in their session | ${((result.inboxSyncsDone - result.inboxSyncsSkipped - result.inboxSyncsDeferred) / minutes).toFixed(1)} / ${(result.inboxReadsInTicks / minutes).toFixed(1)} | — |`,
        `| X Chat page loads per DM: inbox, requests, threads (reads and sends) | ${(['inbox', 'requests', 'thread'] as const).map((k) => (dms > 0 ? ((end.chatLoads[k] - start.chatLoads[k]) / dms).toFixed(2) : '—')).join(', ')} | — |`,
        `| proxies: connections, requests, max connections per account, accounts without traffic, wrong logins | ${traffic.connections}, ${traffic.requests}, ${traffic.maxConnectionsPerAccount}, ${traffic.unused}, ${traffic.wrongLogins} | wrong logins 0, every account: ${met(checks.proxies)} |`,
        `| CPU by kind (100 % = one core) | ${byKind.map(({ kind, percent }) => `${kind} ${percent} %`).join(', ')} | — |`,
        `| accounts: not active at the end / trust down since the start / paused or flagged during the minutes (by the breaker) | ${result.accountsNotActive} / ${result.accountsTrustDown} / ${result.accountsStopped} (${result.accountsBreakerTripped}) | 0: ${met(checks.accounts)} |`,
        `| dm_logs by status | ${result.byStatus} | — |`,
        `| admission: job limit mean (min); readings high / steady / calm; run queue per core mean; event-loop lag p90 | ${admissionSummary(sampler.admission)} | — |`,
        '',
        ...(result.failures.length > 0 ? [`Failed jobs: ${result.failures.join('; ')}.`, ''] : []),
        `Load average (1 min) during the measured minutes: mean ${mean(sampler.loads).toFixed(2)}, max ${Math.max(0, ...sampler.loads).toFixed(2)}.`,
        `Load before: \`${loadBefore}\`; after: \`${execSync('uptime').toString().trim()}\``,
      ].join('\n'),
    )
    // a login on another account's proxy is a leak, not a missed target: it fails the run always
    if (traffic.wrongLogins > 0 || (STRICT && Object.values(checks).includes(false))) process.exitCode = 1
  } finally {
    stopBusyCore()
    await runner?.stop()
    await clock.reset().catch(() => undefined)
    await closeProxies(proxies)
    await closeAdminDb()
    await stopBackground(config)
  }
}

function admissionSummary(samples: AdmissionSample[]): string {
  if (samples.length === 0) return 'off'
  const share = (p: string) =>
    `${Math.round((100 * samples.filter((s) => s.pressure === p).length) / samples.length)} %`
  const jobs = samples.map((s) => s.jobs)
  const lags = samples.map((s) => s.lagMs).sort((a, b) => a - b)
  const runQueue = samples.reduce((sum, s) => sum + s.runQueuePerCore, 0) / samples.length
  return [
    `${(jobs.reduce((a, b) => a + b, 0) / jobs.length).toFixed(1)} (${Math.min(...jobs)})`,
    `${share('high')} / ${share('steady')} / ${share('calm')}`,
    runQueue.toFixed(2),
    `${lags[Math.floor(lags.length * 0.9)]} ms`,
  ].join('; ')
}

main().catch((error: unknown) => {
  console.error('[bench] failed:', error)
  process.exit(1)
})
