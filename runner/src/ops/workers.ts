// pg-boss workers for the runner's queues: a capped number per queue, each working one job at a
// time under the queue's hard time limit (the handler's signal aborts at the limit; a handler that
// still does not end is abandoned shortly after, so a hung job never holds a worker). A queue is
// started and stopped as a whole when operators pause and resume it.
import type { Job, JobWithMetadata, PgBoss } from 'pg-boss'
import { DeferredForLoadError } from '../jobs/context.ts'
import { QUEUES, type QueueName } from '../jobs/queues.ts'
import type { Logger } from '../log.ts'
import type { Admission } from './admission.ts'
import { GateWaitTimeoutError, SEND_PRIORITY } from './gate.ts'
import type { CurrentJob } from './heartbeat.ts'

/** `queuedAt`: when the job was queued (pg-boss created_on, database time). */
export type QueueHandler = (data: unknown, signal: AbortSignal, queuedAt: Date) => Promise<unknown>

export class JobTimeLimitError extends Error {
  override name = 'JobTimeLimitError'
}

export interface WorkersOptions {
  boss: PgBoss
  concurrency: Record<QueueName, number>
  timeLimitMs: Record<QueueName, number>
  pollMs: number
  handlers: Record<QueueName, QueueHandler>
  /** Fires when the runner shuts down: running handlers stop starting new work. */
  shutdown: AbortSignal
  log: Logger
  jobStarted: (job: CurrentJob) => Promise<void>
  jobEnded: (id: string) => Promise<void>
  /** Admission control: a job of an admitted queue starts only once a job slot is free. */
  admission?: Admission
  /** How long a fetched job waits for a slot before it is deferred to the scheduler's next round. */
  admissionWaitMs?: number
  /** The queues that wait for admission (ADMITTED_QUEUES unless a test names its own). */
  admittedQueues?: ReadonlySet<string>
  /** Which admitted queues are served first (QUEUE_PRIORITY unless a test names its own). */
  priorities?: Readonly<Record<string, number>>
}

/**
 * Queues whose jobs wait for admission. An account test has a customer waiting on its answer and a
 * canary run an operator: both are rare and run at once.
 */
export const ADMITTED_QUEUES: ReadonlySet<QueueName> = new Set([
  'campaign.tick',
  'inbox.sync',
  'scrape.run',
  'warmup.step',
])

/** Admitted queues served first; the rest wait behind them (priority 0). */
export const QUEUE_PRIORITY: Readonly<Record<string, number>> = { 'campaign.tick': SEND_PRIORITY }

/** How long a finished job's completion is retried while the database is unreachable. */
const SETTLE_FOR_MS = 120_000

/** How long past its time limit a handler that ignores its abort is waited for. */
const ABANDON_AFTER_MS = 30_000

export class Workers {
  readonly #running = new Set<QueueName>()
  readonly #inFlight = new Set<Promise<unknown>>()

  constructor(readonly options: WorkersOptions) {}

  get runningQueues(): ReadonlySet<QueueName> {
    return this.#running
  }

  get inFlight(): number {
    return this.#inFlight.size
  }

  /** Starts every queue that is not paused and stops every queue that is. */
  async apply(paused: ReadonlySet<QueueName>): Promise<void> {
    for (const queue of QUEUES) {
      if (paused.has(queue) && this.#running.has(queue)) await this.stopQueue(queue)
      else if (!paused.has(queue) && !this.#running.has(queue)) await this.startQueue(queue)
    }
  }

  async startQueue(queue: QueueName): Promise<void> {
    if (this.options.shutdown.aborted) return
    this.#running.add(queue)
    for (let i = 0; i < this.options.concurrency[queue]; i++) {
      await this.options.boss.work(
        queue,
        {
          batchSize: 1,
          pollingIntervalSeconds: Math.max(0.5, this.options.pollMs / 1000),
          includeMetadata: true,
        },
        // Batches of one, settled here (retried while the database is away) rather than by pg-boss
        // alone: a complete/fail lost to a database restart left the job `active` until it expired
        // (10+ minutes with no tick for that campaign; seen in the db-restart test). pg-boss's
        // complete afterwards finds the job no longer active and changes nothing.
        async (jobs) => {
          for (const job of jobs) {
            const outcome = await this.#track(
              this.#admitted(queue, job).then(
                (output) => ({ ok: true as const, output }),
                (error: unknown) => ({ ok: false as const, error }),
              ),
            )
            await this.#settle(queue, job.id, outcome)
          }
        },
      )
    }
  }

  async stopQueue(queue: QueueName): Promise<void> {
    this.#running.delete(queue)
    // Stop fetching only: pg-boss 12's offWork waits for the running handler by default, and a tick
    // must first see the shutdown signal (drain() waits for what still runs).
    await this.options.boss.offWork(queue, { wait: false })
  }

  async stopAll(): Promise<void> {
    for (const queue of [...this.#running]) await this.stopQueue(queue)
  }

  /** Resolves when the jobs running now have ended, or after waitMs. */
  async drain(waitMs: number): Promise<boolean> {
    const deadline = Date.now() + waitMs
    while (this.#inFlight.size > 0 && Date.now() < deadline) {
      await Promise.race([Promise.allSettled([...this.#inFlight]), sleep(Math.max(0, deadline - Date.now()))])
    }
    return this.#inFlight.size === 0
  }

  /**
   * Marks a finished job completed (with the handler's output) or failed, retrying while the
   * database is unreachable. After SETTLE_FOR_MS it gives up: the job then expires as before.
   */
  async #settle(
    queue: QueueName,
    id: string,
    outcome: { ok: true; output: unknown } | { ok: false; error: unknown },
  ): Promise<void> {
    const deadline = Date.now() + SETTLE_FOR_MS
    for (let wait = 250; ; wait = Math.min(wait * 2, 5_000)) {
      try {
        if (outcome.ok) await this.options.boss.complete(queue, id, outcome.output as object)
        else await this.options.boss.fail(queue, id, outcome.error as object)
        return
      } catch (error) {
        if (Date.now() + wait > deadline) {
          const message = error instanceof Error ? error.message : String(error)
          await this.options.log.write('error', 'scheduler', `Could not settle ${queue} job: ${message}`, {
            jobId: id,
            queue,
          })
          return
        }
        await sleep(wait)
      }
    }
  }

  async #track<T>(work: Promise<T>): Promise<T> {
    this.#inFlight.add(work)
    try {
      return await work
    } finally {
      this.#inFlight.delete(work)
    }
  }

  /**
   * Runs the job once admitted. A job that finds no slot in time, or whose handler found the
   * machine too slow, completes as deferred: the scheduler queues it again, nothing failed.
   */
  async #admitted(queue: QueueName, job: JobWithMetadata<unknown>): Promise<unknown> {
    const admission = this.options.admission
    const accountId = (job.data as { accountId?: unknown } | null)?.accountId
    // named in the heartbeat while it waits too: a fetched job no runner names is reaped as orphaned
    await this.options.jobStarted({
      id: job.id,
      name: queue,
      ...(typeof accountId === 'string' ? { accountId } : {}),
      startedAt: new Date().toISOString(),
    })
    let release = () => {}
    try {
      if (admission && (this.options.admittedQueues ?? ADMITTED_QUEUES).has(queue)) {
        try {
          release = await admission.jobs.acquire(
            this.options.admissionWaitMs ?? 60_000,
            this.options.shutdown,
            (this.options.priorities ?? QUEUE_PRIORITY)[queue] ?? 0,
          )
        } catch (error) {
          // a job that never started is given back whole: no failure, no retry spent
          if (this.options.shutdown.aborted)
            return await this.#deferred(queue, job, 'the runner is shutting down')
          if (!(error instanceof GateWaitTimeoutError)) throw error
          return await this.#deferred(queue, job, 'the runner is busy')
        }
      }
      return await this.#run(queue, job)
    } catch (error) {
      if (!(error instanceof DeferredForLoadError)) throw error
      return await this.#deferred(queue, job, error.message)
    } finally {
      release()
      await this.options.jobEnded(job.id)
    }
  }

  async #deferred(queue: QueueName, job: Job<unknown>, why: string): Promise<{ deferred: string }> {
    this.options.admission?.deferred()
    await this.options.log.write('info', 'scheduler', `${queue} job deferred: ${why}`, {
      jobId: job.id,
      queue,
    })
    return { deferred: why }
  }

  async #run(queue: QueueName, job: JobWithMetadata<unknown>): Promise<unknown> {
    const limit = this.options.timeLimitMs[queue]
    const controller = new AbortController()
    const onShutdown = () => controller.abort(new Error('The runner is shutting down.'))
    this.options.shutdown.addEventListener('abort', onShutdown, { once: true })
    let timer: ReturnType<typeof setTimeout> | undefined
    const abandoned = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort(new JobTimeLimitError(`${queue} reached its time limit of ${limit / 1000} s`))
        timer = setTimeout(
          () =>
            reject(
              new JobTimeLimitError(
                `${queue} did not stop within ${ABANDON_AFTER_MS / 1000} s of its time limit`,
              ),
            ),
          ABANDON_AFTER_MS,
        )
      }, limit)
    })
    try {
      const result = await Promise.race([
        this.options.handlers[queue](job.data, controller.signal, job.createdOn),
        abandoned,
      ])
      if (controller.signal.reason instanceof JobTimeLimitError) throw controller.signal.reason
      return result
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      const level = error instanceof Error && error.name === 'RetryLaterError' ? 'info' : 'error'
      // a deferral is logged once as such by #admitted
      if (!(error instanceof DeferredForLoadError))
        await this.options.log.write(level, 'scheduler', `${queue} job failed: ${message}`, {
          jobId: job.id,
          queue,
        })
      throw error
    } finally {
      clearTimeout(timer)
      this.options.shutdown.removeEventListener('abort', onShutdown)
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
