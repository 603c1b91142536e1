// What every job handler gets: the database, the account sessions, the log, the settings, and an
// abort signal that fires at the job's time limit or when the runner shuts down.
import type { RunnerConfig } from '../config.ts'
import type { Db } from '../db.ts'
import type { Logger } from '../log.ts'
import type { Admission } from '../ops/admission.ts'
import type { PackSource } from '../packs/registry.ts'
import type { SessionManager } from '../sessions/manager.ts'

export type HandlerConfig = Pick<
  RunnerConfig,
  | 'pacingFactor'
  | 'uncertainCheckAfterMs'
  | 'tickBudgetMs'
  | 'accountWaitMs'
  | 'keyring'
  | 'instagramGraphUrl'
> &
  Partial<Pick<RunnerConfig, 'ai'>>

export interface JobContext {
  db: Db
  sessions: SessionManager
  log: Logger
  config: HandlerConfig
  signal: AbortSignal
  /** Random numbers for gaps and message variants (tests pass a seeded one). */
  random: () => number
  /** The platform facts sessions open with (recorded with a site change). */
  packs: PackSource
  /** Admission control (absent when the runner has none): whether a read needing a sign-in waits now. */
  admission?: Pick<Admission, 'coldReadsWait'>
  /** When the job was queued (database time); absent when a handler is called without a queue. */
  queuedAt?: Date
}

/** Thrown to make pg-boss retry the job later (with the queue's backoff). */
export class RetryLaterError extends Error {
  override name = 'RetryLaterError'
}

/**
 * Thrown when the machine was too slow for the job now (a session open ran out of time with no
 * answer from the site about the account): the job completes as deferred, not failed, and the
 * scheduler queues it again on its next round. Nothing is held against the account.
 */
export class DeferredForLoadError extends Error {
  override name = 'DeferredForLoadError'
}

/** Waits ms unless the signal fires first; says whether the whole wait happened. */
export function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false)
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve(true)
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      resolve(false)
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}
