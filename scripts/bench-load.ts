// `npm run bench:load`: 200 signed-in customers (one autocannon connection each) doing what the
// dashboard does for 60 s, through the gateway: the data API reads and RPCs of the dashboard page and
// the api function's credit and campaign reads. Runs on its own stack instance (`load`), prints the
// error rate, p50/p95/p99 latency and the machine's load, and writes them to
// .stack/load/bench-load.json for docs/reliability.md. The instance's runner keeps working its
// campaigns meanwhile (the issue asks for sending under load): the figures include the DMs it sent
// during the load window and whether it answered its health check before and after.
// BENCH_LOAD_SECONDS / BENCH_LOAD_USERS change the defaults (60 s, 200).
import { randomInt } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import pg from 'pg'
import { startBackground, stopBackground } from '../stack/src/cli.ts'
import { stackConfig } from '../stack/src/config.ts'

const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60)
const USERS = Number(process.env.BENCH_LOAD_USERS ?? 200)
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

/**
 * While the load runs, one extra customer reads each dashboard path in turn and times it, so the
 * report says which route is slow under load (autocannon's own figures mix all eight paths).
 */
function probeRoutes(token: string, until: () => boolean): Promise<Record<string, number[]>> {
  const times: Record<string, number[]> = {}
  const run = async () => {
    while (!until()) {
      for (const path of READS) {
        const started = performance.now()
        try {
          const response = await fetch(`${config.apiUrl}${path}`, {
            method: path.includes('/rpc/') ? 'POST' : 'GET',
            headers: {
              apikey: config.anonKey,
              Authorization: `Bearer ${token}`,
              'Content-Type': 'application/json',
            },
            ...(path.includes('/rpc/') ? { body: '{}' } : {}),
            signal: AbortSignal.timeout(10_000),
          })
          await response.arrayBuffer()
          if (response.ok) {
            times[path] ??= []
            times[path].push(performance.now() - started)
          }
        } catch {
          // a timeout shows up in autocannon's error count; the probe only times answers
        }
      }
    }
    return times
  }
  return run()
}

function percentiles(values: number[]): { p50: number; p95: number; n: number } {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (p: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0)
  return { p50: at(0.5), p95: at(0.95), n: sorted.length }
}

const READS = [
  '/rest/v1/rpc/dashboard_summary',
  '/rest/v1/rpc/todays_overview',
  '/rest/v1/campaigns?select=id,name,status,messages_sent,response_count,updated_at&order=updated_at.desc&limit=10',
  '/rest/v1/social_accounts?select=id,username,status,messages_sent_today,daily_message_limit',
  '/rest/v1/notifications?select=id,type,title,message,read,created_at&order=created_at.desc&limit=20',
  '/rest/v1/user_profiles?select=*',
  '/functions/v1/api/user/credits',
  '/functions/v1/api/v2/campaigns',
]

async function main(): Promise<void> {
  console.log(`[bench:load] starting the ${config.instance} instance at ${config.apiUrl}`)
  // The demo runner's gaps between DMs compressed further than `npm start` does (0.05), so it keeps
  // sending throughout the minute of load instead of once.
  process.env.RUNNER_PACING_FACTOR ??= '0.01'
  await startBackground(config, true)
  try {
    const tokens = await customers()
    console.log(`[bench:load] ${tokens.length} customers signed in; ${SECONDS} s of dashboard reads`)
    const latencies: number[] = []
    const load: number[] = []
    let next = 0
    const runnerBefore = await runnerAlive()
    const loadStarted = await databaseNow()
    const sampler = setInterval(() => load.push(loadavg()[0] ?? 0), 1000)
    const options: autocannon.Options = {
      url: config.apiUrl,
      connections: tokens.length,
      duration: SECONDS,
      timeout: 10,
      requests: READS.map((path) => ({
        method: path.includes('/rpc/') ? 'POST' : 'GET',
        path,
        setupRequest: (request: autocannon.Request, context: object) => {
          const state = context as { token?: string }
          state.token ??= tokens[next++ % tokens.length]
          return {
            ...request,
            headers: {
              apikey: config.anonKey,
              Authorization: `Bearer ${String(state.token)}`,
              'Content-Type': 'application/json',
            },
            ...(path.includes('/rpc/') ? { body: '{}' } : {}),
          }
        },
      })),
    }
    let loadDone = false
    const probe = probeRoutes(tokens[0] as string, () => loadDone)
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(options, (error, done) => (error ? reject(error) : resolve(done)))
      instance.on('response', (_client, _status, _bytes, time) => latencies.push(time))
    }).finally(() => {
      loadDone = true
    })
    const routeTimes = await probe
    clearInterval(sampler)
    const dmsSent = await dmsSentSince(loadStarted)
    const runnerAfter = await runnerAlive()
    latencies.sort((a, b) => a - b)
    const at = (p: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0
    // autocannon counts timeouts among `errors` too; a request either answered (2xx or not) or failed.
    const answered = latencies.length
    const failed = result.non2xx + result.errors
    const total = answered + result.errors
    const errors = failed
    const figures = {
      at: new Date().toISOString(),
      customers: tokens.length,
      seconds: SECONDS,
      requests: total,
      requestsPerSecond: Math.round(result.requests.average),
      errorRatePercent: total ? Number(((100 * errors) / total).toFixed(3)) : 0,
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      latencyMs: {
        p50: Math.round(at(50)),
        p95: Math.round(at(95)),
        p99: Math.round(at(99)),
        max: Math.round(latencies.at(-1) ?? 0),
      },
      perRouteUnderLoadMs: Object.fromEntries(
        READS.map((path) => [path, percentiles(routeTimes[path] ?? [])]),
      ),
      runner: {
        answeredHealthBefore: runnerBefore,
        answeredHealthAfter: runnerAfter,
        dmsSentDuringLoad: dmsSent,
      },
      machine: {
        cpus: cpus().length,
        loadAverage1mMax: Number(Math.max(...load).toFixed(2)),
        loadAverage1mMean: Number((load.reduce((s, v) => s + v, 0) / Math.max(1, load.length)).toFixed(2)),
      },
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
