// The runner crash scenario (`reliability.md`) re-run while the gateway is under read load: signed-in customers read
// their dashboards through the gateway (autocannon, one connection each) while the real runner
// sends a campaign and is killed with SIGKILL at random moments of its sending, then started again.
// Used by the bounded alone-suite (`npm test`) and the long soak run (`npm run soak`).
import { randomInt } from 'node:crypto'
import { loadavg } from 'node:os'
import autocannon from 'autocannon'
import { adminDb } from '../../../runner/test/helpers/fixtures.ts'
import { RunnerProcess, waitFor } from '../../../runner/test/helpers/process.ts'
import { anonKey, api } from '../../../stack/gateway/test/helpers.ts'
import { dashboardRequests } from '../dashboard-requests.ts'
import {
  type CampaignRun,
  deliveredCount,
  driveScheduler,
  startCampaigns,
  type Verdict,
  verdict,
} from './campaign-run.ts'

export interface CrashUnderLoadOptions {
  customers: number
  kills: number
  accounts: number
  leadsPerAccount: number
  profileOffset: number
  /** autocannon's per-request timeout. */
  requestTimeoutS: number
}

export interface CrashUnderLoadFigures {
  verdict: Verdict
  killedAfter: number[]
  seconds: number
  requests: number
  non2xx: number
  errors: number
  timeouts: number
  errorRatePercent: number
  latencyMs: { p50: number; p95: number; p99: number; max: number }
  loadAverage: { mean: number; max: number }
}

/** The dashboard's reads (as `npm run bench:load` does them). */
const READS = [
  '/rest/v1/rpc/dashboard_summary',
  '/rest/v1/rpc/todays_overview',
  '/rest/v1/campaigns?select=id,name,status,messages_sent,response_count,updated_at&order=updated_at.desc&limit=10',
  '/rest/v1/social_accounts?select=id,username,status,messages_sent_today,daily_message_limit',
  '/rest/v1/notifications?select=id,type,title,message,read,created_at&order=created_at.desc&limit=20',
  '/functions/v1/api/user/credits',
]
/** Each runner is killed once it claimed or delivered a DM (plus up to 3 s), or after this long. */
const LIFE_LIMIT_MS = 45_000
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Signs up `count` customers (each from its own address, as real ones would); their access tokens. */
async function signUp(count: number): Promise<string[]> {
  const tokens: string[] = []
  const tag = Date.now().toString(36)
  for (let i = 0; i < count; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, count - i) }, async (_, j) => {
        const response = await fetch(`${api}/auth/v1/signup`, {
          method: 'POST',
          headers: {
            apikey: anonKey,
            'Content-Type': 'application/json',
            'X-Forwarded-For': `10.${randomInt(0, 255)}.${randomInt(0, 255)}.${randomInt(1, 254)}`,
          },
          body: JSON.stringify({
            email: `crashload-${tag}-${i + j}@reachflow.test`,
            password: 'crash-load-pw',
          }),
        })
        const body = (await response.json()) as { access_token?: string }
        if (!body.access_token) throw new Error(`sign-up ${response.status}: ${JSON.stringify(body)}`)
        return body.access_token
      }),
    )
    tokens.push(...batch)
  }
  return tokens
}

/** Dashboard reads from every customer until stopped; resolves with autocannon's result. */
function readLoad(tokens: string[], timeoutS: number, latencies: number[]) {
  let finished: (result: autocannon.Result) => void = () => undefined
  let failed: (error: Error) => void = () => undefined
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    finished = resolve
    failed = reject
  })
  const options: autocannon.Options = {
    url: api,
    connections: tokens.length,
    duration: 3_600,
    timeout: timeoutS,
    requests: dashboardRequests(READS, tokens, anonKey),
  }
  const instance = autocannon(options, (error, result) => (error ? failed(error) : finished(result)))
  instance.on('response', (_client, _status, _bytes, time) => latencies.push(time))
  return { stop: () => instance.stop(), done }
}

function startRunner(accounts: number): RunnerProcess {
  return RunnerProcess.start({
    RUNNER_SEND_CONCURRENCY: String(accounts),
    RUNNER_UNCERTAIN_CHECK_AFTER_MS: '2000',
    RUNNER_SESSION_IDLE_MS: '600000',
  })
}

/** Nothing is due now and nothing is being sent or checked: what is still pending waits for its backoff. */
async function settled(run: CampaignRun): Promise<boolean> {
  const { rows } = await adminDb().query<{ n: number }>(
    `select count(*)::int as n from public.campaign_leads
      where campaign_id = any($1)
        and (state in ('sending', 'uncertain') or (state = 'pending' and coalesce(next_send_at <= internal.now(), true)))`,
    [run.campaignIds],
  )
  return rows[0]?.n === 0
}

export async function crashUnderLoad(options: CrashUnderLoadOptions): Promise<CrashUnderLoadFigures> {
  const tokens = await signUp(options.customers)
  const run = await startCampaigns(options.accounts, options.leadsPerAccount, options.profileOffset)
  const latencies: number[] = []
  const load: number[] = []
  const sampler = setInterval(() => load.push(loadavg()[0] ?? 0), 1_000)
  const stopScheduler = driveScheduler()
  const started = Date.now()
  const reads = readLoad(tokens, options.requestTimeoutS, latencies)
  let runner = startRunner(options.accounts)
  const killedAfter: number[] = []
  try {
    for (let kill = 0; kill < options.kills; kill++) {
      const before = await deliveredCount(run)
      const bornAt = new Date()
      const lifeEnds = Date.now() + LIFE_LIMIT_MS
      await waitFor(
        'the runner to send',
        async () => {
          if ((await deliveredCount(run)) > before || Date.now() > lifeEnds) return true
          const { rows } = await adminDb().query(
            'select 1 from public.dm_logs where campaign_id = any($1) and created_at >= $2 limit 1',
            [run.campaignIds, bornAt],
          )
          return rows.length > 0
        },
        LIFE_LIMIT_MS + 30_000,
        200,
      )
      await sleep(Math.random() * 3_000)
      killedAfter.push(await deliveredCount(run))
      runner.kill('SIGKILL')
      await runner.exited
      runner = startRunner(options.accounts)
    }
    // the last runner settles what the kills left and sends everything that is due
    await waitFor('the last runner to finish the campaign', () => settled(run), 480_000, 1_000).catch(
      async (error: Error) => {
        const { rows } = await adminDb().query(
          `select username, state, next_send_at, attempts, last_error from public.campaign_leads
            where campaign_id = any($1) and state <> 'sent' order by next_send_at`,
          [run.campaignIds],
        )
        throw new Error(`${error.message}; open leads ${JSON.stringify(rows)}; runner:\n${runner.tail(60)}`)
      },
    )
    if (!runner.running) throw new Error(`the last runner exited:\n${runner.tail()}`)
  } finally {
    stopScheduler()
    reads.stop()
    await runner.stop()
    clearInterval(sampler)
  }
  const result = await reads.done
  const seconds = (Date.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  const at = (p: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0)
  const requests = latencies.length + result.errors
  return {
    verdict: await verdict(run),
    killedAfter,
    seconds,
    requests,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    errorRatePercent: requests ? Number(((100 * (result.non2xx + result.errors)) / requests).toFixed(3)) : 0,
    latencyMs: { p50: at(50), p95: at(95), p99: at(99), max: Math.round(latencies.at(-1) ?? 0) },
    loadAverage: {
      mean: Number((load.reduce((s, v) => s + v, 0) / Math.max(1, load.length)).toFixed(2)),
      max: Number(Math.max(0, ...load).toFixed(2)),
    },
  }
}

export function describeFigures(label: string, figures: CrashUnderLoadFigures, customers: number): string {
  const { verdict: v } = figures
  return (
    `[reliability] ${label}: ${customers} customers reading dashboards for ${figures.seconds.toFixed(0)} s ` +
    `(${figures.requests} requests, error rate ${figures.errorRatePercent} %: ${figures.non2xx} non-2xx, ` +
    `${figures.errors} errors, ${figures.timeouts} timeouts; p50 ${figures.latencyMs.p50} ms, ` +
    `p95 ${figures.latencyMs.p95} ms, p99 ${figures.latencyMs.p99} ms, max ${figures.latencyMs.max} ms) while the ` +
    `runner was SIGKILLed ${figures.killedAfter.length} times (after ${figures.killedAfter.join(', ')} deliveries); ` +
    `${v.delivered} delivered, ${v.duplicates.length} duplicates, ${v.lost.length} lost, leads ${JSON.stringify(v.states)}; ` +
    `load average ${figures.loadAverage.mean} mean / ${figures.loadAverage.max} max`
  )
}
