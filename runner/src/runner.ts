// One runner process: the database pool and lease connection, Chromium, the warm account sessions,
// the platform packs in use, pg-boss with a capped set of workers per queue, the heartbeat, and
// the operators' controls.
// One shutdown path (SIGTERM/SIGINT, a restart or stop command): stop fetching, let running jobs
// finish their current step (their signal fires), release what is left to pg-boss, save and close
// the browser sessions, close Chromium, mark the heartbeat stopped, let go of the leases.
import { createServer, type Server } from 'node:http'
import { PgBoss } from 'pg-boss'
import { BrowserPool } from './browser/pool.ts'
import type { RunnerConfig } from './config.ts'
import { createDb, type Db, dbNow } from './db.ts'
import { accountTest } from './jobs/account-test.ts'
import { campaignTick } from './jobs/campaign-tick.ts'
import type { JobContext } from './jobs/context.ts'
import { inboxSync } from './jobs/inbox-sync.ts'
import { instagramEvent } from './jobs/instagram-event.ts'
import { instagramFollowup } from './jobs/instagram-followup.ts'
import { instagramToken } from './jobs/instagram-token.ts'
import { platformCanary } from './jobs/platform-canary.ts'
import { type JobData, QUEUES, type QueueName, readJobData } from './jobs/queues.ts'
import { scrapeRun } from './jobs/scrape-run.ts'
import { guardSiteChange } from './jobs/site-change-guard.ts'
import { warmupStep } from './jobs/warmup-step.ts'
import { AccountLeases } from './leases.ts'
import { Logger } from './log.ts'
import { Admission } from './ops/admission.ts'
import { Control, type RunnerCommand } from './ops/control.ts'
import { Heartbeat } from './ops/heartbeat.ts'
import { queueSettlingSyncs } from './ops/settle-sweep.ts'
import { ADMITTED_QUEUES, type QueueHandler, Workers } from './ops/workers.ts'
import { CODE_DEFAULT_FACTS } from './packs/code-defaults.ts'
import { PlatformPacks } from './packs/registry.ts'
import { fleetShare } from './sessions/fleet-share.ts'
import { SessionManager } from './sessions/manager.ts'

/** Exit code asking the supervisor (systemd, the local stack) to start the runner again. */
export const RESTART_EXIT_CODE = 75

export type RunnerState = 'starting' | 'running' | 'halted' | 'stopping' | 'stopped'

export class Runner {
  state: RunnerState = 'starting'
  readonly db: Db
  readonly log: Logger
  readonly pool: BrowserPool
  readonly leases: AccountLeases
  readonly sessions: SessionManager
  readonly packs: PlatformPacks
  readonly boss: PgBoss
  readonly admission: Admission | undefined
  readonly #shutdown = new AbortController()
  heartbeat!: Heartbeat
  control!: Control
  workers!: Workers
  #health: Server | undefined
  #stopping: Promise<void> | undefined
  #exit!: (code: number) => void
  /** Resolves with the exit code the process should end with (a restart command, a fatal error). */
  readonly exitRequested: Promise<number>

  constructor(readonly config: RunnerConfig) {
    this.exitRequested = new Promise((resolve) => {
      this.#exit = resolve
    })
    this.db = createDb(
      config.databaseUrl,
      Math.max(10, config.concurrency['campaign.tick'] + config.concurrency['inbox.sync'] + 4),
    )
    this.log = new Logger(this.db, { runner: config.runnerId })
    this.pool = new BrowserPool(config.chromiumPath ? { executablePath: config.chromiumPath } : {})
    this.leases = new AccountLeases(config.databaseUrl, config.runnerId, (lost) => {
      void this.log.error('scheduler', `The lease connection dropped; ${lost.length} accounts released`, {
        accounts: lost.length,
      })
    })
    this.packs = new PlatformPacks({
      db: this.db,
      log: this.log,
      defaults: CODE_DEFAULT_FACTS,
      pollMs: config.packPollMs,
    })
    const admission = config.admission
    this.admission = admission
      ? new Admission({
          // every worker of the admitted queues: a calm machine runs all of them
          maxJobs: [...ADMITTED_QUEUES].reduce((sum, queue) => sum + config.concurrency[queue], 0),
          maxOpens: admission.maxOpens,
          lagHighMs: admission.lagHighMs,
          lagLowMs: admission.lagHighMs / 4,
          runQueueHigh: admission.runQueueHigh,
          runQueueLow: admission.runQueueHigh * 0.6,
          intervalMs: admission.intervalMs,
          onChange: (limits) => {
            void this.log.info(
              'scheduler',
              `Admission: ${limits.jobs} jobs and ${limits.opens} sign-ins at once (machine ${limits.pressure})`,
              { ...this.admission?.stats },
            )
          },
        })
      : undefined
    this.sessions = new SessionManager({
      ...(this.admission ? { opens: this.admission.opens, openWaitMs: admission?.waitMs } : {}),
      db: this.db,
      pool: this.pool,
      leases: this.leases,
      keyring: config.keyring,
      idleMs: config.sessionIdleMs,
      maxWarm: config.maxWarmSessions,
      packs: this.packs,
      openOptions: {
        xBaseUrl: config.xBaseUrl,
        xApiBaseUrl: config.xApiBaseUrl,
        instagramBaseUrl: config.instagramBaseUrl,
        typing: { delayFactor: config.typingFactor },
        now: () => Date.now() + this.clockOffsetMs,
        allowProxyHosts: config.allowProxyHosts,
      },
    })
    this.boss = new PgBoss({
      connectionString: config.databaseUrl,
      schema: 'pgboss',
      migrate: false,
      schedule: false,
      supervise: true,
      // REINDEX needs the table's owner; the runner only reads and writes rows (operators reindex).
      reindex: false,
      max: 4,
      application_name: 'reachflow-runner-jobs',
    })
    this.boss.on('error', (error) => {
      void this.log.error('scheduler', `pg-boss: ${error.message}`)
    })
  }

  /** internal.now() minus the real time: the test clock, which TOTP codes must follow. */
  clockOffsetMs = 0

  async start(): Promise<void> {
    const { config } = this
    await this.leases.start()
    const dbTime = await dbNow(this.db)
    this.clockOffsetMs = dbTime.getTime() - Date.now()
    const startedAt = (await this.db.query<{ now: Date }>('select now()')).rows[0]?.now ?? new Date()
    await this.packs.start()
    await this.boss.start()
    const admission = this.admission
    this.heartbeat = new Heartbeat({
      db: this.db,
      runnerId: config.runnerId,
      host: config.host,
      version: config.version,
      intervalMs: config.heartbeatMs,
      leases: this.leases,
      log: this.log,
      ...(admission ? { admission: () => admission.stats } : {}),
      failJobs: async (jobs, reason) => {
        for (const job of jobs) await this.boss.fail(job.name, job.id, { reason })
      },
      onBeat: async () => {
        if (this.state !== 'running') return
        await queueSettlingSyncs(this.db, this.boss, config.uncertainCheckAfterMs, (id) =>
          this.sessions.inUse(id),
        )
        await this.sessions.setShare(await fleetShare(this.db))
      },
    })
    await this.heartbeat.start()
    this.workers = new Workers({
      boss: this.boss,
      concurrency: config.concurrency,
      timeLimitMs: config.jobTimeLimitMs,
      pollMs: config.pollMs,
      handlers: this.#handlers(),
      shutdown: this.#shutdown.signal,
      log: this.log,
      jobStarted: (job) => this.heartbeat.jobStarted(job),
      jobEnded: (id) => this.heartbeat.jobEnded(id),
      ...(this.admission ? { admission: this.admission, admissionWaitMs: config.admission?.waitMs } : {}),
    })
    this.control = new Control({
      db: this.db,
      runnerId: config.runnerId,
      startedAt,
      pollMs: config.pollMs,
      log: this.log,
      onPausedChange: async (paused) => {
        if (this.state !== 'running') return
        await this.workers.apply(paused)
        await this.log.info(
          'scheduler',
          `Working ${QUEUES.filter((q) => !paused.has(q)).join(', ') || 'no queue'}`,
          {
            paused: [...paused],
          },
        )
      },
      onCommand: (command, id) => this.#command(command, id),
    })
    await this.control.start()
    this.state = 'running'
    await this.workers.apply(this.control.paused)
    if (config.healthPort) this.#health = await this.#serveHealth(config.healthPort)
    await this.log.info('scheduler', `Runner ${config.runnerId} started`, {
      pid: process.pid,
      concurrency: config.concurrency,
      paused: [...this.control.paused],
    })
  }

  #context(signal: AbortSignal): JobContext {
    return {
      db: this.db,
      sessions: this.sessions,
      log: this.log,
      config: this.config,
      signal,
      random: Math.random,
      packs: this.packs,
      ...(this.admission ? { admission: this.admission } : {}),
    }
  }

  #handlers(): Record<QueueName, QueueHandler> {
    // a changed page that reaches a job's top is a site change, recorded, not a job failure
    const guarded =
      <Q extends QueueName>(queue: Q, handler: (ctx: JobContext, data: JobData[Q]) => Promise<unknown>) =>
      async (data: unknown, signal: AbortSignal, queuedAt: Date) => {
        const ctx = { ...this.#context(signal), queuedAt }
        const job = readJobData(queue, data)
        const accountId = 'accountId' in job ? job.accountId : undefined
        return guardSiteChange(ctx, () => handler(ctx, job), accountId)
      }
    return {
      'account.test': guarded('account.test', accountTest),
      'scrape.run': guarded('scrape.run', scrapeRun),
      'campaign.tick': guarded('campaign.tick', campaignTick),
      'inbox.sync': guarded('inbox.sync', inboxSync),
      'warmup.step': guarded('warmup.step', warmupStep),
      'platform.canary': (data, signal) =>
        platformCanary(this.#context(signal), readJobData('platform.canary', data)),
      // no browser and no account session: one call to Instagram's Graph API
      'instagram.token': (data) =>
        instagramToken({ db: this.db, config: this.config }, readJobData('instagram.token', data)),
      'instagram.event': (data) =>
        instagramEvent(
          { db: this.db, log: this.log, config: this.config },
          readJobData('instagram.event', data),
        ),
      'instagram.followup': (data) =>
        instagramFollowup(
          { db: this.db, log: this.log, config: this.config },
          readJobData('instagram.followup', data),
        ),
    }
  }

  async #command(command: RunnerCommand, id: string): Promise<string> {
    if (command === 'restart') {
      await this.control.finish(id, 'Restarting')
      // not awaited: the shutdown waits for this very poll of the commands to end
      void this.stop('restart command').finally(() => this.#exit(RESTART_EXIT_CODE))
      return 'Restarting'
    }
    await this.halt()
    return 'Stopped: no jobs are worked until a restart'
  }

  /** Stops working jobs but keeps the process (and its command polling) alive. */
  async halt(): Promise<void> {
    if (this.state !== 'running') return
    this.state = 'halted'
    await this.workers.stopAll()
    await this.workers.drain(60_000)
    await this.sessions.closeIdle(Number.POSITIVE_INFINITY)
    await this.heartbeat.setStatus('stopped')
    await this.log.info('scheduler', `Runner ${this.config.runnerId} stopped working jobs`)
  }

  /** The graceful shutdown; safe to call more than once. */
  stop(reason = 'shutdown'): Promise<void> {
    this.#stopping ??= this.#stop(reason)
    return this.#stopping
  }

  async #stop(reason: string): Promise<void> {
    this.state = 'stopping'
    await this.log.info('scheduler', `Runner ${this.config.runnerId} stopping (${reason})`)
    await this.heartbeat?.setStatus('stopping').catch(() => undefined)
    await this.control?.stop()
    await this.packs.stop()
    this.admission?.stop()
    await this.workers?.stopAll().catch(() => undefined)
    // running jobs see their signal: no new sends; what they are doing now may finish
    this.#shutdown.abort()
    await this.workers?.drain(25_000)
    // whatever still runs goes back to pg-boss (retried, or the next tick)
    await this.boss.stop({ graceful: true, timeout: 5_000 }).catch(() => undefined)
    await this.sessions.closeAll(5_000).catch(() => undefined)
    await this.pool.close().catch(() => undefined)
    await this.heartbeat?.stop().catch(() => undefined)
    await this.leases.close()
    await new Promise<void>((resolve) => (this.#health ? this.#health.close(() => resolve()) : resolve()))
    await this.db.end().catch(() => undefined)
    this.state = 'stopped'
  }

  async #serveHealth(port: number): Promise<Server> {
    const server = createServer((req, res) => {
      if (req.url !== '/health') {
        res.writeHead(404).end()
        return
      }
      const ok = this.state === 'running' || this.state === 'halted'
      res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          status: this.state,
          runnerId: this.config.runnerId,
          jobs: this.workers?.inFlight ?? 0,
          warmSessions: this.sessions.warmCount,
          warmSessionLimit: this.sessions.warmLimit,
          evictedSessions: this.sessions.evicted,
          openedSessions: this.sessions.opened,
          restoredSessions: this.sessions.restored,
          pausedQueues: [...(this.control?.paused ?? [])],
          ...(this.admission ? { admission: this.admission.stats } : {}),
        }),
      )
    })
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, '127.0.0.1', () => resolve())
    })
    return server
  }
}
