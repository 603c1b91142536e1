// The runner's parts for calling job handlers directly, as pg-boss would: the runner's own database
// role, real Chromium, real leases, the sandboxes' URLs. Pacing and typing are compressed.
import { randomUUID } from 'node:crypto'
import { testRandom } from '../../../stack/src/test-seed.ts'
import { BrowserPool } from '../../src/browser/pool.ts'
import { keyringFromEnv } from '../../src/crypto.ts'
import { createDb, type Db } from '../../src/db.ts'
import type { HandlerConfig, JobContext } from '../../src/jobs/context.ts'
import { AccountLeases } from '../../src/leases.ts'
import { Logger } from '../../src/log.ts'
import { CODE_DEFAULT_FACTS } from '../../src/packs/code-defaults.ts'
import { codePack, type PackSource } from '../../src/packs/registry.ts'
import { SessionManager } from '../../src/sessions/manager.ts'
import { env } from './fixtures.ts'

export interface TestRunner {
  db: Db
  pool: BrowserPool
  leases: AccountLeases
  sessions: SessionManager
  config: HandlerConfig
  context(overrides?: Partial<JobContext>): JobContext
  close(): Promise<void>
}

/** The code defaults, as a runner uses them until an operator publishes a pack. */
export const CODE_PACKS: PackSource = { current: (platform) => codePack(platform, CODE_DEFAULT_FACTS) }

export async function testRunner(
  config: Partial<HandlerConfig> = {},
  timeouts: { navigationMs?: number; operationMs?: number; confirmMs?: number } = {
    navigationMs: 40_000,
    operationMs: 60_000,
    confirmMs: 20_000,
  },
  packs: PackSource = CODE_PACKS,
): Promise<TestRunner> {
  const databaseUrl = env('RUNNER_DATABASE_URL')
  const db = createDb(databaseUrl, 8)
  const pool = new BrowserPool()
  const leases = new AccountLeases(databaseUrl, `test-${randomUUID()}`)
  await leases.start()
  const full: HandlerConfig = {
    pacingFactor: 0,
    uncertainCheckAfterMs: 0,
    tickBudgetMs: 120_000,
    accountWaitMs: 60_000,
    keyring: keyringFromEnv(),
    instagramGraphUrl: env('INSTAGRAM_GRAPH_URL'),
    ...config,
  }
  const sessions = new SessionManager({
    db,
    pool,
    leases,
    keyring: full.keyring,
    idleMs: 600_000,
    packs,
    openOptions: {
      xBaseUrl: env('X_BASE_URL'),
      xApiBaseUrl: env('X_API_BASE_URL'),
      instagramBaseUrl: env('INSTAGRAM_BASE_URL'),
      typing: { delayFactor: 0 },
      now: Date.now,
      timeouts,
    },
  })
  const log = new Logger(db, { test: true }, 'info', false)
  return {
    db,
    pool,
    leases,
    sessions,
    config: full,
    context: (overrides = {}) => ({
      db,
      sessions,
      log,
      config: full,
      signal: new AbortController().signal,
      random: testRandom('runner context'),
      packs,
      ...overrides,
    }),
    close: async () => {
      await sessions.closeAll(5_000)
      await pool.close()
      await leases.close()
      await db.end()
    },
  }
}
