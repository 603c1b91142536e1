// Admission control: the runner takes fewer jobs and opens fewer sessions at once when the machine
// is starved, instead of starting everything and having every open hit its navigation limit. A
// sampler reads this process's event-loop delay and the machine's run queue (docs/decisions.md says
// why those two) every intervalMs; the policy turns each reading into limits; two gates apply them
// (workers wait on `jobs` before taking a job, sessions wait on `opens` before signing in). The
// readings are injectable so tests drive the policy without depending on how busy the machine is.
import { readFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import {
  type AdmissionLimits,
  AdmissionPolicy,
  type AdmissionPolicyOptions,
  DEFAULT_ADMISSION,
  type LoadReading,
} from './admission-policy.ts'
import { Gate } from './gate.ts'

export type ReadLoad = () => LoadReading

export interface AdmissionOptions extends Partial<Omit<AdmissionPolicyOptions, 'maxJobs' | 'maxOpens'>> {
  maxJobs: number
  maxOpens: number
  /** How often the load is read (0: never on a timer; tests call sample()). */
  intervalMs: number
  /** Where readings come from; the machine's own when absent. */
  readLoad?: ReadLoad
  /** Told when the limits change (the runner logs it for operators). */
  onChange?: (limits: AdmissionLimits) => void
}

export interface AdmissionStats extends AdmissionLimits {
  runningJobs: number
  opensInFlight: number
  /** Jobs deferred since start because the machine was loaded (admission wait or a slow open). */
  deferred: number
  lagMs: number
  runQueuePerCore: number
}

export class Admission {
  readonly policy: AdmissionPolicy
  readonly jobs: Gate
  readonly opens: Gate
  #deferred = 0
  #last: LoadReading = { lagMs: 0, runQueuePerCore: 0 }
  #timer: ReturnType<typeof setInterval> | undefined
  readonly #read: ReadLoad
  readonly #stopReading: () => void

  constructor(readonly options: AdmissionOptions) {
    this.policy = new AdmissionPolicy({ ...DEFAULT_ADMISSION, ...withoutUndefined(options) })
    this.jobs = new Gate(options.maxJobs)
    this.opens = new Gate(options.maxOpens)
    if (options.readLoad) {
      this.#read = options.readLoad
      this.#stopReading = () => undefined
    } else {
      const machine = machineLoad()
      this.#read = machine.read
      this.#stopReading = machine.stop
    }
    if (options.intervalMs > 0) {
      this.#timer = setInterval(() => this.sample(), options.intervalMs)
      this.#timer.unref()
    }
  }

  /** Takes one reading and applies the limits that follow. */
  sample(): AdmissionLimits {
    const before = this.policy.limits
    this.#last = this.#read()
    const limits = this.policy.observe(this.#last)
    this.jobs.setLimit(limits.jobs)
    this.opens.setLimit(limits.opens)
    if (limits.jobs !== before.jobs || limits.opens !== before.opens) this.options.onChange?.(limits)
    return limits
  }

  /**
   * Whether a read that needs a sign-in should wait now: a send waits for a job or sign-in slot, or
   * the machine is under pressure. A sign-in is the costliest thing a job does (about 1.35 CPU-s),
   * and on a machine already short of CPU it comes out of the sends' share even behind them.
   */
  coldReadsWait(): boolean {
    return (
      this.policy.limits.pressure === 'high' ||
      this.jobs.waitingAbove(0) > 0 ||
      this.opens.waitingAbove(0) > 0
    )
  }

  /** Counts a job put off because of load (the heartbeat reports the total). */
  deferred(): void {
    this.#deferred += 1
  }

  get stats(): AdmissionStats {
    return {
      ...this.policy.limits,
      runningJobs: this.jobs.active,
      opensInFlight: this.opens.active,
      deferred: this.#deferred,
      lagMs: Math.round(this.#last.lagMs),
      runQueuePerCore: Math.round(this.#last.runQueuePerCore * 100) / 100,
    }
  }

  stop(): void {
    clearInterval(this.#timer)
    this.#stopReading()
  }
}

function withoutUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T
}

/**
 * This process's event-loop delay (p99 since the last reading) and the machine's runnable tasks
 * per core (procs_running in /proc/stat, smoothed: one look is noisy). Off Linux the run queue
 * reads 0 and the lag alone decides.
 */
export function machineLoad(): { read: ReadLoad; stop: () => void } {
  const histogram = monitorEventLoopDelay({ resolution: 20 })
  histogram.enable()
  const cores = Math.max(1, cpus().length)
  let smoothed: number | undefined
  return {
    read: () => {
      const lagMs = histogram.count > 0 ? histogram.percentile(99) / 1e6 : 0
      histogram.reset()
      const running = procsRunning()
      // procs_running counts the reader itself
      const now = running === undefined ? 0 : Math.max(0, running - 1) / cores
      smoothed = smoothed === undefined ? now : smoothed * 0.6 + now * 0.4
      return { lagMs, runQueuePerCore: smoothed }
    },
    stop: () => histogram.disable(),
  }
}

function procsRunning(): number | undefined {
  try {
    const value = /^procs_running\s+(\d+)/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1]
    return value === undefined ? undefined : Number(value)
  } catch {
    return undefined
  }
}
