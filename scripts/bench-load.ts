// `npm run bench:load`: 200 signed-in customers (one autocannon connection each) doing what the
// dashboard does, through the gateway: the data API reads and RPCs of the dashboard page and the api
// function's credit and campaign reads. Two phases on its own stack instance (`load`):
//   1. the target: 60 s with each customer sending one read a second (BENCH_LOAD_RATE), a customer
//      clicking and refreshing without pause — error rate and p50/p95/p99 latency;
//   2. capacity: 30 s with no pause between reads (closed loop), the most it answers.
// The instance's runner keeps working its campaigns meanwhile (the issue asks for sending under
// load): each phase reports the DMs it recorded sent, and whether the runner answered its health
// check before and after. Writes .stack/load/bench-load.json for docs/reliability.md.
// BENCH_LOAD_SECONDS / BENCH_LOAD_USERS / BENCH_LOAD_RATE / BENCH_LOAD_SATURATION_SECONDS /
// BENCH_LOAD_WARMUP_SECONDS change the defaults (60 s, 200, 1, 30, 10).
import { randomInt } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import pg from 'pg'
import { startBackground, stopBackground } from '../stack/src/cli.ts'
import { stackConfig } from '../stack/src/config.ts'
import { dashboardRequests } from '../tests/reliability/dashboard-requests.ts'
import { cpuByKind, cpuByPid, machineBusySeconds } from './bench/cpu-by-kind.ts'

const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60)
const USERS = Number(process.env.BENCH_LOAD_USERS ?? 200)
/**
 * Requests per second each customer sends in the main phase. The dashboard itself polls every 12 s
 * (60 s for notifications); one read a second is a customer clicking through tabs and refreshing
 * without pause, twelve times what the open page asks for. See docs/decisions.md.
 */
const RATE = Number(process.env.BENCH_LOAD_RATE ?? 1)
/** The closed-loop phase after it (no pause between reads): capacity, not the target. 0 skips it. */
const SATURATION_SECONDS = Number(process.env.BENCH_LOAD_SATURATION_SECONDS ?? 30)
/**
 * Paced reads before the measured phase, not counted: the api function's Deno process starts on its
 * first call (as a hosted function's first call is a cold start), and an unwarmed run charged those
 * seconds of start-up to the requests queued behind it.
 */
const WARMUP_SECONDS = Number(process.env.BENCH_LOAD_WARMUP_SECONDS ?? 10)
const config = stackConfig('load')
const fakeIp = () => `10.${randomInt(0, 255)}.${randomInt(0, 255)}.${randomInt(1, 254)}`

async function token(
  email: string,
  password: string,
  signUp: boolean,
): Promise<{ token: string; id: string }> {
  const path = signUp ? '/auth/v1/signup' : '/auth/v1/token?grant_type=password'
  const response = await fetch(`${config.apiUrl}${path}`, {
    method: 'POST',
    headers: { apikey: config.anonKey, 'Content-Type': 'application/json', 'X-Forwarded-For': fakeIp() },
    body: JSON.stringify({ email, password }),
  })
  const body = (await response.json()) as { access_token?: string; user?: { id: string } }
  if (!body.access_token || !body.user)
    throw new Error(`${path} for ${email}: ${response.status} ${JSON.stringify(body)}`)
  return { token: body.access_token, id: body.user.id }
}

/** Customers with something on their dashboard: notifications and a campaign on an account. */
async function customers(): Promise<string[]> {
  const db = new pg.Client({ connectionString: config.dbUrl })
  await db.connect()
  const tokens: string[] = []
  try {
    const run = Date.now().toString(36)
    for (let i = 0; i < USERS; i += 20) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(20, USERS - i) }, (_, j) =>
          i + j < USERS / 10
            ? token('demo@reachflow.test', 'demo-password', false)
            : token(`load-${run}-${i + j}@reachflow.test`, 'load-password', true),
        ),
      )
      for (const user of batch) tokens.push(user.token)
      await db.query(
        `insert into public.notifications (user_id, type, title, message)
         select u, 'campaign_started', 'Campaign started', 'Your campaign is running'
           from unnest($1::uuid[]) u, generate_series(1, 5)
          where not exists (select 1 from public.notifications n where n.user_id = u)`,
        [batch.map((b) => b.id)],
      )
    }
  } finally {
    await db.end()
  }
  return tokens
}

/**
 * DMs the runner recorded as sent since `since` (database clock), over every campaign. `sent_at`
 * is stamped when the send is recorded; `created_at` is the intent, written before the typing.
 */
async function dmsSentSince(since: Date): Promise<number> {
  const db = new pg.Client({ connectionString: config.dbUrl })
  await db.connect()
  try {
    const { rows } = await db.query<{ n: number }>(
      "select count(*)::int as n from public.dm_logs where status = 'sent' and sent_at >= $1",
      [since],
    )
    return rows[0]?.n ?? 0
  } finally {
    await db.end()
  }
}

async function databaseNow(): Promise<Date> {
  const db = new pg.Client({ connectionString: config.dbUrl })
  await db.connect()
  try {
    return (await db.query<{ now: Date }>('select clock_timestamp() as now')).rows[0]?.now as Date
  } finally {
    await db.end()
  }
}

/**
 * Waits until the runner has sent its first DM since `since`: its campaigns are first ticked at the
 * next whole minute (pg_cron), and a load phase that ends before that measures no sending at all.
 */
async function runnerSending(since: Date, timeoutMs = 150_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if ((await dmsSentSince(since)) > 0) {
      console.log('[bench:load] the runner is sending; the load starts')
      return
    }
    await new Promise((resolve) => setTimeout(resolve, 2000))
  }
  console.log(`[bench:load] no DM sent within ${timeoutMs / 1000} s of the start; loading anyway`)
}

/** The runner of this instance answers its health check (it is part of the non-test stack). */
async function runnerAlive(): Promise<boolean> {
  try {
    const response = await fetch(`http://${config.host}:${config.ports.runnerHealth}/health`)
    await response.arrayBuffer()
    return response.ok
  } catch {
    return false
  }
}

interface Percentiles {
  p50: number
  p95: number
  p99: number
  max: number
  n: number
}

function percentiles(values: number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (p: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0)
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: Math.round(sorted.at(-1) ?? 0), n: sorted.length }
}

/** The dashboard's reads: the first screen's snapshot, the guard's profile, the bell, the live polls. */
const READS = [
  '/rest/v1/rpc/dashboard_snapshot',
  '/rest/v1/rpc/dashboard_summary',
  '/rest/v1/rpc/todays_overview',
  '/rest/v1/campaigns?select=id,name,status,messages_sent,response_count,updated_at&order=updated_at.desc&limit=10',
  '/rest/v1/social_accounts?select=id,username,status,daily_message_limit,platform:platforms(name,display_name)&order=created_at.desc',
  '/rest/v1/notifications?select=id,type,title,message,read,created_at&order=created_at.desc&limit=20',
  '/rest/v1/user_profiles?select=*',
  '/functions/v1/api/user/credits',
  '/functions/v1/api/v2/campaigns',
]

interface PhaseFigures {
  connections: number
  /** Requests per second each customer sends; null: as fast as answers come (closed loop). */
  ratePerCustomer: number | null
  seconds: number
  requests: number
  requestsPerSecond: number
  errorRatePercent: number
  non2xx: number
  errors: number
  timeouts: number
  latencyMs: { p50: number; p95: number; p99: number; max: number }
  /** autocannon's latencies of each dashboard read. */
  perRouteMs: Record<string, Percentiles>
  /** The spread of each second's p95: steady or a few bad seconds. */
  p95BySecondMs: Percentiles
  worstSecondsP95Ms: { second: number; p95: number; n: number }[]
  dmsSentDuringLoad: number
  /** Where the CPU went: the stack's processes by kind and this process (autocannon), per request. */
  cpuMsPerRequest: Record<string, number>
  /** The whole machine's busy CPU, % of one core (200 = both cores of two). */
  machineCpuPercent: number
  loadAverage1m: { mean: number; max: number }
}

/** What autocannon's response event passes as its client, as far as read here. */
interface AnsweredClient {
  requestIterator: { currentRequest: { path: string } }
}

/** Paced customers start in this many groups, spread over the first second (see `phase`). */
const START_GROUPS = 20

/**
 * One phase of load: every customer one connection cycling through READS, either at `rate`
 * requests per second each (a customer with the dashboard open) or, without a rate, as fast as the
 * answers come back (the saturation run that shows capacity). autocannon paces a connection with a
 * one-second timer started with the connection, so 200 paced connections of one instance fire in the
 * same millisecond every second, a burst no real crowd of customers makes: the customers start in
 * START_GROUPS instances, each group a fraction of a second after the one before.
 */
async function phase(tokens: string[], seconds: number, rate: number | null): Promise<PhaseFigures> {
  const latencies: number[] = []
  const byRoute: Record<string, number[]> = {}
  const bySecond: number[][] = []
  const loadStarted = performance.now()
  // pg_ctl detaches Postgres from the supervisor: its postmaster is a root of its own
  const postmaster = Number(readFileSync(join(config.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0])
  const stack = [Number(readFileSync(config.lockFile, 'utf8').trim()), postmaster]
  const cpuBefore = cpuByPid(...stack)
  const benchCpuBefore = process.cpuUsage()
  const machineBefore = machineBusySeconds()
  const load: number[] = []
  const started = await databaseNow()
  const sampler = setInterval(() => load.push(loadavg()[0] ?? 0), 1000)
  const groups = Array.from({ length: Math.min(START_GROUPS, tokens.length) }, (_, g) =>
    tokens.filter((_token, i) => i % START_GROUPS === g),
  )
  const runGroup = async (group: string[], g: number): Promise<autocannon.Result> => {
    if (rate) await new Promise((resolve) => setTimeout(resolve, (g * 1000) / (rate * groups.length)))
    const options: autocannon.Options = {
      url: config.apiUrl,
      connections: group.length,
      duration: seconds,
      timeout: 10,
      ...(rate ? { connectionRate: rate } : {}),
      requests: dashboardRequests(READS, group, config.anonKey),
    }
    return new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(options, (error, finished) => (error ? reject(error) : resolve(finished)))
      instance.on('response', (client, _status, _bytes, time) => {
        latencies.push(time)
        // one request in flight per connection: the iterator still holds the one just answered
        const path = (client as unknown as AnsweredClient).requestIterator.currentRequest.path
        byRoute[path] ??= []
        byRoute[path].push(time)
        const second = Math.floor((performance.now() - loadStarted) / 1000)
        bySecond[second] ??= []
        bySecond[second].push(time)
      })
    })
  }
  const results = await Promise.all(groups.map(runGroup))
  const elapsed = (performance.now() - loadStarted) / 1000
  const benchCpu = process.cpuUsage(benchCpuBefore)
  const answered = Math.max(1, latencies.length)
  const cpuMsPerRequest = Object.fromEntries(
    [
      ...cpuByKind(cpuBefore, cpuByPid(...stack), elapsed),
      { kind: 'bench:load (autocannon)', cpuSeconds: (benchCpu.user + benchCpu.system) / 1e6 },
    ].map(({ kind, cpuSeconds }) => [kind, Number(((cpuSeconds * 1000) / answered).toFixed(2))]),
  )
  const machineCpuPercent = Math.round(((machineBusySeconds() - machineBefore) / elapsed) * 100)
  const sum = (pick: (r: autocannon.Result) => number) => results.reduce((total, r) => total + pick(r), 0)
  const result = {
    errors: sum((r) => r.errors),
    non2xx: sum((r) => r.non2xx),
    timeouts: sum((r) => r.timeouts),
    requestsPerSecond: sum((r) => r.requests.average),
  }
  clearInterval(sampler)
  const { n: _answered, ...latencyMs } = percentiles(latencies)
  const seconds95 = bySecond.map((times, second) => ({
    second,
    p95: percentiles(times).p95,
    n: times.length,
  }))
  // autocannon counts timeouts among `errors` too; a request either answered (2xx or not) or failed.
  const total = latencies.length + result.errors
  const failed = result.non2xx + result.errors
  return {
    connections: tokens.length,
    ratePerCustomer: rate,
    seconds,
    requests: total,
    requestsPerSecond: Math.round(result.requestsPerSecond),
    errorRatePercent: total ? Number(((100 * failed) / total).toFixed(3)) : 0,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    latencyMs,
    perRouteMs: Object.fromEntries(READS.map((path) => [path, percentiles(byRoute[path] ?? [])])),
    p95BySecondMs: percentiles(seconds95.map((s) => s.p95)),
    worstSecondsP95Ms: seconds95.sort((x, y) => y.p95 - x.p95).slice(0, 5),
    dmsSentDuringLoad: await dmsSentSince(started),
    cpuMsPerRequest,
    machineCpuPercent,
    loadAverage1m: {
      mean: Number((load.reduce((s, v) => s + v, 0) / Math.max(1, load.length)).toFixed(2)),
      max: Number(Math.max(...load).toFixed(2)),
    },
  }
}

async function main(): Promise<void> {
  console.log(`[bench:load] starting the ${config.instance} instance at ${config.apiUrl}`)
  // The demo runner's gaps between DMs compressed further than `npm start` does (0.05), so it keeps
  // sending throughout the minute of load instead of once.
  process.env.RUNNER_PACING_FACTOR ??= '0.01'
  await startBackground(config, true)
  const stackUp = await databaseNow()
  try {
    const tokens = await customers()
    const runnerBefore = await runnerAlive()
    await runnerSending(stackUp)
    console.log(
      `[bench:load] ${tokens.length} customers signed in; ${WARMUP_SECONDS} s of warm-up, then ${SECONDS} s of dashboard reads at ${RATE} request/s each`,
    )
    if (WARMUP_SECONDS > 0) await phase(tokens, WARMUP_SECONDS, RATE)
    const customersPhase = await phase(tokens, SECONDS, RATE)
    console.log(`[bench:load] ${SATURATION_SECONDS} s as fast as answers come (capacity)`)
    const saturation = SATURATION_SECONDS > 0 ? await phase(tokens, SATURATION_SECONDS, null) : null
    const figures = {
      at: new Date().toISOString(),
      customers: customersPhase,
      saturation,
      runner: { answeredHealthBefore: runnerBefore, answeredHealthAfter: await runnerAlive() },
      machine: { cpus: cpus().length },
    }
    console.log(JSON.stringify(figures, null, 2))
    writeFileSync(join(config.dir, 'bench-load.json'), `${JSON.stringify(figures, null, 2)}\n`)
  } finally {
    await stopBackground(config)
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
