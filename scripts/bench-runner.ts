// `npm run bench:runner`: one runner process working 50 active X accounts against the X sandbox,
// with realistic typing (RUNNER_TYPING_FACTOR=1: 40–130 ms a key) and compressed gaps between DMs
// (RUNNER_PACING_FACTOR), on its own `bench` instance of the stack (dev and test are untouched).
// Measures sustained DMs per minute (from the sandbox's delivery log, after a warm-up), the peak
// memory of the runner with its Chromium (RSS and PSS of the whole process tree) and its CPU.
// Targets on 2 cores: ≥ 30 DMs/min (50 accounts × 450/day needs 15.6), ≤ 4 GB.
// Prints a Markdown report for docs/benchmarks.md and exits 1 if a target is missed.
//   BENCH_MINUTES (default 4) measured minutes after BENCH_WARMUP_S (default 60) seconds of warm-up.
import { execSync } from 'node:child_process'
import { cpus, loadavg, totalmem } from 'node:os'
import { startBackground, stopBackground } from '../stack/src/cli.ts'
import { stackConfig } from '../stack/src/config.ts'
import { testEnv } from '../stack/src/test-all.ts'
import { CpuTracker, cpuByKind, machineBusySeconds } from './bench/cpu-by-kind.ts'

const ACCOUNTS = 50
const LEADS_PER_ACCOUNT = 60
const MINUTES = Number(process.env.BENCH_MINUTES ?? 4)
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 60)
const CONCURRENCY = process.env.BENCH_CONCURRENCY ?? '12'
const PACING = process.env.BENCH_PACING_FACTOR ?? '0.01'
const TARGET_DMS_PER_MINUTE = 30
const TARGET_MEMORY_MB = 4096

const config = stackConfig('bench')
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function main(): Promise<void> {
  const loadBefore = execSync('uptime').toString().trim()
  console.error(`[bench] starting the bench stack (${config.dir})`)
  await startBackground(config, true)
  Object.assign(process.env, testEnv(config))
  // the helpers read the environment when used, so they come after it is set
  const { adminDb, closeAdminDb, EVERY_DAY } = await import('../runner/test/helpers/fixtures.ts')
  const { createSendingFleet } = await import('../runner/test/helpers/fleet.ts')
  const { quietOtherWork, RunnerProcess } = await import('../runner/test/helpers/process.ts')
  const { SandboxAdmin, sandboxUrl } = await import('../runner/test/helpers/sandbox.ts')
  const { treeUsage } = await import('../runner/src/process-stats.ts')

  const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
  const db = adminDb()
  let runner: { stop(): Promise<void>; pid: number } | undefined
  let scheduler: ReturnType<typeof setInterval> | undefined
  try {
    await quietOtherWork()
    const fleet = await createSendingFleet(x, {
      accounts: ACCOUNTS,
      leadsPerAccount: LEADS_PER_ACCOUNT,
      account: { dailyLimit: 450 },
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
        dailyLimit: 450,
      },
    })
    const userId = fleet.userId
    const delivered = async () => (await fleet.deliveries()).length

    // compressed time: the scheduler every 2 s instead of every minute
    scheduler = setInterval(
      () => void db.query('select internal.enqueue_due_work()').catch(() => undefined),
      2_000,
    )
    runner = RunnerProcess.start({
      RUNNER_SEND_CONCURRENCY: CONCURRENCY,
      RUNNER_TYPING_FACTOR: '1',
      RUNNER_PACING_FACTOR: PACING,
      RUNNER_SESSION_IDLE_MS: '600000',
      RUNNER_POLL_MS: '1000',
      RUNNER_HEARTBEAT_MS: '10000',
    })
    const pid = runner.pid
    let peakRss = 0
    let peakPss = 0
    let peakProcesses = 0
    const loads: number[] = []
    // renderers come and go (a session's page is closed between jobs): CPU is tracked per process
    const cpu = new CpuTracker(pid)
    const sampler = setInterval(() => {
      loads.push(loadavg()[0] ?? 0)
      cpu.sample()
      const usage = treeUsage(pid, true)
      peakRss = Math.max(peakRss, usage.rssMb)
      peakPss = Math.max(peakPss, usage.pssMb ?? 0)
      peakProcesses = Math.max(peakProcesses, usage.processes)
    }, 2_000)

    await sleep(WARMUP_S * 1000)
    loads.length = 0 // the load of the measured minutes only
    const startCount = await delivered()
    const startByPid = cpu.sample()
    const startMachine = machineBusySeconds()
    const startedAt = Date.now()
    const perMinute: number[] = []
    let last = startCount
    for (let minute = 0; minute < MINUTES; minute++) {
      await sleep(60_000)
      const now = await delivered()
      perMinute.push(now - last)
      last = now
      console.error(`[bench] minute ${minute + 1}: ${perMinute.at(-1)} DMs`)
    }
    const seconds = (Date.now() - startedAt) / 1000
    const byKind = cpuByKind(startByPid, cpu.sample(), seconds, cpu.kindOf)
    const cpuPercent = (byKind.reduce((sum, k) => sum + k.cpuSeconds, 0) / seconds) * 100
    const machinePercent = ((machineBusySeconds() - startMachine) / seconds) * 100
    const kindSummary = byKind.map(({ kind, percent }) => `${kind} ${percent} %`).join(', ')
    clearInterval(sampler)
    const total = last - startCount
    const rate = total / (seconds / 60)
    const loadAfter = execSync('uptime').toString().trim()
    const { rows } = await db.query<{ status: string; n: number }>(
      `select d.status, count(*)::int as n from public.dm_logs d join public.campaigns c on c.id = d.campaign_id
        where c.user_id = $1 group by 1 order by 1`,
      [userId],
    )
    // what else the runner worked on meanwhile (inbox syncs hold an account like a tick does)
    const jobs = await db.query<{ name: string; n: number; seconds: number }>(
      `select name, count(*)::int as n, coalesce(sum(extract(epoch from completed_on - started_on)), 0)::float8 as seconds
         from pgboss.job where started_on >= $1 and started_on < $2 group by 1 order by 1`,
      [new Date(startedAt), new Date(startedAt + seconds * 1000)],
    )
    const rateOk = rate >= TARGET_DMS_PER_MINUTE
    const memoryOk = peakPss <= TARGET_MEMORY_MB
    console.log(
      [
        `## Runner (\`npm run bench:runner\`)`,
        '',
        `${ACCOUNTS} active X accounts on one runner (campaign.tick concurrency ${CONCURRENCY}), realistic typing,`,
        `gaps compressed ×${PACING}, against the X sandbox; ${WARMUP_S} s warm-up, then ${MINUTES} measured minutes.`,
        `Machine: ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GB, shared with other work.`,
        '',
        '| measure | result | target |',
        '| --- | --- | --- |',
        `| sustained DMs/min | ${rate.toFixed(1)} (per minute: ${perMinute.join(', ')}) | ≥ ${TARGET_DMS_PER_MINUTE} ${rateOk ? '✓' : '✗'} |`,
        `| peak memory, runner + Chromium (PSS / RSS sum) | ${peakPss.toFixed(0)} MB / ${peakRss.toFixed(0)} MB, ${peakProcesses} processes | ≤ ${TARGET_MEMORY_MB} MB ${memoryOk ? '✓' : '✗'} |`,
        `| CPU, runner + Chromium (100 % = one core) | ${cpuPercent.toFixed(0)} % average (${kindSummary}) | — |`,
        `| CPU, whole machine (sandbox, database, gateway too) | ${machinePercent.toFixed(0)} % of ${cpus().length * 100} % | — |`,
        `| CPU seconds per DM, runner + Chromium | ${(((cpuPercent / 100) * seconds) / Math.max(1, total)).toFixed(2)} s | — |`,
        `| dm_logs by status | ${rows.map((r) => `${r.status} ${r.n}`).join(', ')} | — |`,
        `| jobs started in the measured minutes (job-seconds) | ${jobs.rows.map((j) => `${j.name} ${j.n} (${j.seconds.toFixed(0)} s)`).join(', ')} | — |`,
        '',
        `Load average (1 min) during the measured minutes: mean ${(loads.reduce((a, b) => a + b, 0) / Math.max(1, loads.length)).toFixed(2)}, max ${Math.max(0, ...loads).toFixed(2)}.`,
        '',
        `Load before: \`${loadBefore}\``,
        '',
        `Load after: \`${loadAfter}\``,
      ].join('\n'),
    )
    if (!rateOk || !memoryOk) process.exitCode = 1
  } finally {
    clearInterval(scheduler)
    await runner?.stop()
    await closeAdminDb()
    await stopBackground(config)
  }
}

main().catch((error: unknown) => {
  console.error('[bench] failed:', error)
  process.exit(1)
})
