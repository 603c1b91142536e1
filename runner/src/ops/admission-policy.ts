// How many jobs may run and how many session opens may be in flight, from how loaded the machine
// is. Additive increase, multiplicative decrease, with hysteresis: a reading over the high marks
// halves both limits at once (a starved machine must shed work before every open times out); only
// several calm readings in a row add back a step (an eighth of the job maximum, one sign-in), so a
// limit does not flap around a threshold. Between the marks the limits hold. Never below 1: a
// loaded runner sends fewer DMs, not none. One job at a time would be too slow a climb: in the
// 500-account bench one high reading in nine kept 26 job slots near 3 on a mostly calm machine.

export interface LoadReading {
  /** Event-loop delay of this process over the last interval (p99, ms). */
  lagMs: number
  /** Runnable tasks on the machine per CPU core (1 = every core busy, more = tasks wait for a core). */
  runQueuePerCore: number
}

export interface AdmissionPolicyOptions {
  maxJobs: number
  maxOpens: number
  /** Over either high mark the machine is under pressure. */
  lagHighMs: number
  runQueueHigh: number
  /** Under both low marks it is calm. */
  lagLowMs: number
  runQueueLow: number
  /** Calm readings in a row before a limit grows by one. */
  calmReadings: number
}

export const DEFAULT_ADMISSION: Omit<AdmissionPolicyOptions, 'maxJobs' | 'maxOpens'> = {
  lagHighMs: 200,
  runQueueHigh: 4,
  lagLowMs: 50,
  runQueueLow: 2.4,
  calmReadings: 3,
}

export type Pressure = 'high' | 'calm' | 'steady'

export interface AdmissionLimits {
  jobs: number
  opens: number
  pressure: Pressure
}

export class AdmissionPolicy {
  #jobs: number
  #opens: number
  #calm = 0
  #pressure: Pressure = 'calm'

  constructor(readonly options: AdmissionPolicyOptions) {
    if (options.maxJobs < 1 || options.maxOpens < 1) throw new Error('Admission limits start at 1')
    this.#jobs = options.maxJobs
    this.#opens = options.maxOpens
  }

  get limits(): AdmissionLimits {
    return { jobs: this.#jobs, opens: this.#opens, pressure: this.#pressure }
  }

  /** Takes one reading and returns the limits that follow from it. */
  observe(reading: LoadReading): AdmissionLimits {
    const o = this.options
    if (reading.lagMs >= o.lagHighMs || reading.runQueuePerCore >= o.runQueueHigh) {
      this.#pressure = 'high'
      this.#calm = 0
      this.#jobs = Math.max(1, Math.floor(this.#jobs / 2))
      this.#opens = Math.max(1, Math.floor(this.#opens / 2))
    } else if (reading.lagMs < o.lagLowMs && reading.runQueuePerCore < o.runQueueLow) {
      this.#pressure = 'calm'
      this.#calm += 1
      if (this.#calm >= o.calmReadings) {
        this.#calm = 0
        this.#jobs = Math.min(o.maxJobs, this.#jobs + Math.ceil(o.maxJobs / 8))
        this.#opens = Math.min(o.maxOpens, this.#opens + 1)
      }
    } else {
      this.#pressure = 'steady'
      this.#calm = 0
    }
    return this.limits
  }
}
