// The runner's settings, read once from the environment with a clear message for each bad value.
// Production needs RUNNER_DATABASE_URL and the encryption keys; everything else has a default that
// suits one runner machine. Tests and benchmarks compress pacing and typing with the factors.
import { hostname, totalmem } from 'node:os'
import { type AiConfig, aiConfigFrom } from '@reachflow/ai'
import { type Keyring, keyringFromEnv } from './crypto.ts'
import type { QueueName } from './jobs/queues.ts'

export interface RunnerConfig {
  databaseUrl: string
  /** Unique per process: host, pid and start time. */
  runnerId: string
  host: string
  keyring: Keyring
  xBaseUrl: string
  /** X API v2, for official X accounts (no browser). */
  xApiBaseUrl: string
  instagramBaseUrl: string
  /** Instagram's Graph API host (official accounts' token refresh); the Meta sandbox locally. */
  instagramGraphUrl: string
  /** Workers per queue (each works one job at a time). */
  concurrency: Record<QueueName, number>
  /** How often an idle worker asks for a job, and how often paused queues and commands are read. */
  pollMs: number
  heartbeatMs: number
  /** A warm browser context of an account is closed after this long without a job. */
  sessionIdleMs: number
  /** How many signed-in contexts stay warm at once; beyond it the least recently used closes. */
  maxWarmSessions: number
  /** Scales every gap between sends (1 = realistic spread over the window; 0.01 = a hundred times faster). */
  pacingFactor: number
  /** Scales human typing (1 = realistic, 0 = instant). */
  typingFactor: number
  /** An uncertain send is checked in the thread only once it is this old (late deliveries show up first). */
  uncertainCheckAfterMs: number
  /** One tick keeps sending while the next gap fits in this budget. */
  tickBudgetMs: number
  /** Sent to a job's handler as an abort after this long; pg-boss's own expiry is later. */
  jobTimeLimitMs: Record<QueueName, number>
  /** How long a job waits for its account while another job of this runner uses it. */
  accountWaitMs: number
  /** host:port proxies a test may run on loopback (RUNNER_ALLOW_PROXY_HOSTS); empty in production. */
  allowProxyHosts: string[]
  healthPort: number | null
  chromiumPath: string | undefined
  version: string
  /** The optional AI endpoint (AI_BASE_URL, AI_API_KEY, AI_MODEL): personalisation and lead scoring. */
  ai: AiConfig | null
  /** How often published platform packs are read (a publication is in use within this). */
  packPollMs: number
  /** Admission control (docs/operations.md): limits on jobs and sign-ins under load. */
  admission?: AdmissionConfig
}

export interface AdmissionConfig {
  /** Sign-ins in flight at most when the machine is calm. */
  maxOpens: number
  /** Event-loop delay (p99 ms) and run queue per core at which the limits halve. */
  lagHighMs: number
  runQueueHigh: number
  /** How often the load is read. */
  intervalMs: number
  /** How long a job or a sign-in waits for a slot before the job is put off. */
  waitMs: number
}

function number(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isFinite(value) || value < min || value > max)
    throw new Error(`${name} must be a number from ${min} to ${max}, got "${raw}".`)
  return value
}

/**
 * A parked signed-in context (no page) costs about 1.4 MB of browser memory plus its share of the
 * runner's own objects (docs/benchmarks.md): 2 MB each, within RUNNER_WARM_MEMORY_MB (default a
 * quarter of the machine's memory, at most 1 GB), or RUNNER_WARM_SESSIONS given outright.
 */
function warmSessionCapacity(env: NodeJS.ProcessEnv): number {
  if (env.RUNNER_WARM_SESSIONS) return number(env, 'RUNNER_WARM_SESSIONS', 0, 1, 100_000)
  const budgetMb = Math.min(1024, Math.floor(totalmem() / 4 / 2 ** 20))
  return Math.max(1, Math.floor(number(env, 'RUNNER_WARM_MEMORY_MB', budgetMb, 16, 65_536) / WARM_SESSION_MB))
}

const WARM_SESSION_MB = 2

/** Inbox read workers for this many warm accounts: one per 48, between 2 and 16. */
function inboxWorkers(warmSessions: number): number {
  return Math.min(16, Math.max(2, Math.ceil(warmSessions / 48)))
}

function url(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = env[name]?.trim() || fallback
  try {
    return new URL(raw).toString().replace(/\/$/, '')
  } catch {
    throw new Error(`${name} must be a URL, got "${raw}".`)
  }
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): RunnerConfig {
  const databaseUrl = env.RUNNER_DATABASE_URL?.trim()
  if (!databaseUrl)
    throw new Error('RUNNER_DATABASE_URL must be set (postgres://reachflow_runner:…@host:5432/postgres).')
  const host = hostname()
  // 12 accounts typing at once keep a 2-core runner busy at ~30+ DMs/min (docs/benchmarks.md)
  const sends = number(env, 'RUNNER_SEND_CONCURRENCY', 12, 1, 64)
  const maxWarmSessions = warmSessionCapacity(env)
  return {
    databaseUrl,
    runnerId: `${host}:${process.pid}:${Date.now().toString(36)}`,
    host,
    keyring: keyringFromEnv(env),
    xBaseUrl: url(env, 'X_BASE_URL', 'https://x.com'),
    xApiBaseUrl: url(env, 'X_API_BASE_URL', 'https://api.x.com'),
    instagramBaseUrl: url(env, 'INSTAGRAM_BASE_URL', 'https://www.instagram.com'),
    instagramGraphUrl: url(env, 'INSTAGRAM_GRAPH_URL', 'https://graph.instagram.com'),
    concurrency: {
      'account.test': number(env, 'RUNNER_TEST_CONCURRENCY', 2, 1, 16),
      'scrape.run': number(env, 'RUNNER_SCRAPE_CONCURRENCY', 2, 1, 16),
      'campaign.tick': sends,
      // sized to the accounts this runner keeps warm: one read worker per 48 keeps each account's
      // read every few minutes (a read is a few seconds); the reads wait behind the sends (gate.ts)
      'inbox.sync': number(env, 'RUNNER_INBOX_CONCURRENCY', inboxWorkers(maxWarmSessions), 1, 16),
      'warmup.step': number(env, 'RUNNER_WARMUP_CONCURRENCY', 1, 1, 16),
      'platform.canary': number(env, 'RUNNER_CANARY_CONCURRENCY', 1, 1, 4),
      // one HTTP call each, a few a day
      'instagram.token': 1,
      // a few Graph calls each, answered at once: comments and DMs should not wait behind each other
      'instagram.event': number(env, 'RUNNER_INSTAGRAM_EVENT_CONCURRENCY', 4, 1, 32),
      // one Graph call each, due one by one as the automations' DMs were sent
      'instagram.followup': 2,
    },
    pollMs: number(env, 'RUNNER_POLL_MS', 2000, 500, 60_000),
    heartbeatMs: number(env, 'RUNNER_HEARTBEAT_MS', 10_000, 500, 60_000),
    // Long enough to span the gap between an account's jobs at real pacing (a DM every few
    // minutes, inbox reads between), so a job rarely pays a cold open; memory is bounded by
    // maxWarmSessions, not by this.
    sessionIdleMs: number(env, 'RUNNER_SESSION_IDLE_MS', 1_800_000, 1000, 3_600_000),
    maxWarmSessions,
    pacingFactor: number(env, 'RUNNER_PACING_FACTOR', 1, 0, 10),
    typingFactor: number(env, 'RUNNER_TYPING_FACTOR', 1, 0, 10),
    uncertainCheckAfterMs: number(env, 'RUNNER_UNCERTAIN_CHECK_AFTER_MS', 120_000, 0, 86_400_000),
    tickBudgetMs: number(env, 'RUNNER_TICK_BUDGET_MS', 45_000, 0, 600_000),
    jobTimeLimitMs: {
      'account.test': 240_000,
      'scrape.run': 600_000,
      // a tick's sends plus their gaps; the queue expires a tick after 15 minutes
      'campaign.tick': number(env, 'RUNNER_TICK_TIME_LIMIT_MS', 300_000, 10_000, 840_000),
      'inbox.sync': 300_000,
      'warmup.step': 600_000,
      // sign-in and four reads; the queue expires a run after 10 minutes
      'platform.canary': 300_000,
      'instagram.token': 60_000,
      'instagram.event': 60_000,
      'instagram.followup': 60_000,
    },
    accountWaitMs: number(env, 'RUNNER_ACCOUNT_WAIT_MS', 60_000, 0, 600_000),
    // Test-only: host:port proxies allowed on loopback/private addresses (production leaves it unset).
    allowProxyHosts: (env.RUNNER_ALLOW_PROXY_HOSTS ?? '')
      .split(',')
      .map((entry) => entry.trim().toLowerCase())
      .filter(Boolean),
    healthPort: env.RUNNER_HEALTH_PORT ? number(env, 'RUNNER_HEALTH_PORT', 0, 1, 65_535) : null,
    chromiumPath: env.CHROMIUM_PATH?.trim() || undefined,
    version: env.RUNNER_VERSION?.trim() || 'dev',
    ai: aiConfigFrom((name) => env[name]),
    // operators expect a published pack in use within a minute
    packPollMs: number(env, 'RUNNER_PACK_POLL_MS', 15_000, 500, 60_000),
    admission: {
      // a cold sign-in costs about 1.35 CPU-seconds: four at once already fill two cores
      maxOpens: number(env, 'RUNNER_MAX_OPENS', 4, 1, 64),
      lagHighMs: number(env, 'RUNNER_ADMISSION_LAG_MS', 200, 20, 10_000),
      // runnable threads, not processes: Chromium's bursts reach 2 a core on a half-idle machine
      // (the 500-account bench at load 2.8), while sign-ins kept their time limits at 5-7 a core
      runQueueHigh: number(env, 'RUNNER_ADMISSION_RUN_QUEUE', 4, 0.5, 64),
      intervalMs: number(env, 'RUNNER_ADMISSION_INTERVAL_MS', 2_000, 250, 60_000),
      waitMs: number(env, 'RUNNER_ADMISSION_WAIT_MS', 60_000, 1_000, 600_000),
    },
  }
}
