// Production pacing, compressed: the test clock (internal.now()) runs SPEEDUP times faster than real
// time, and the scheduler runs once a clock minute (pg_cron's every minute). Everything the
// scheduler and the runner decide by that clock — a campaign's next send (next_action_at, from the
// runner's own gap at pacing factor 1), an account's next inbox sync, the daily window — comes
// SPEEDUP times sooner, while the runner's own real-time settings (its session idle limit, tick
// budget, navigation limits) stay production's. The clock starts at a UTC midnight so every
// campaign's gap is a full day's share (about 14 minutes at 100 a day), not the end of a day's.
import type pg from 'pg'

export class FastClock {
  #timer: ReturnType<typeof setInterval> | undefined
  #scheduler: ReturnType<typeof setInterval> | undefined
  #baseMs = 0
  #startedAt = 0
  /** What each scheduler run queued (its summary), for syncs due vs done. */
  readonly queued = { campaignTicks: 0, inboxSyncs: 0, runs: 0 }

  constructor(
    readonly db: pg.Pool,
    readonly speedup: number,
  ) {}

  /** Clock time now (ms), as internal.now() reads it. */
  now(): number {
    return this.#baseMs + (Date.now() - this.#startedAt) * this.speedup
  }

  async start(): Promise<void> {
    const day = 86_400_000
    this.#startedAt = Date.now()
    this.#baseMs = Math.ceil(this.#startedAt / day) * day + 60_000
    await this.#set()
    this.#timer = setInterval(() => void this.#set().catch(() => undefined), 1_000)
    this.#scheduler = setInterval(
      () => void this.#schedule().catch(() => undefined),
      Math.max(1_000, 60_000 / this.speedup),
    )
  }

  async #set(): Promise<void> {
    await this.db.query(`update internal.clock set "offset" = make_interval(secs => $1::float8 / 1000)`, [
      this.now() - Date.now(),
    ])
  }

  async #schedule(): Promise<void> {
    const { rows } = await this.db.query<{ s: { campaignTicks?: number; inboxSyncs?: number } }>(
      'select internal.enqueue_due_work() as s',
    )
    this.queued.runs++
    this.queued.campaignTicks += rows[0]?.s?.campaignTicks ?? 0
    this.queued.inboxSyncs += rows[0]?.s?.inboxSyncs ?? 0
  }

  /** Stops the scheduler and the clock (left where it is, so the end state reads in clock time). */
  stop(): void {
    clearInterval(this.#timer)
    clearInterval(this.#scheduler)
  }

  async reset(): Promise<void> {
    this.stop()
    await this.db.query(`update internal.clock set "offset" = interval '0'`)
  }
}
