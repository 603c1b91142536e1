// What operators ask of runners through the database: paused queues (the runner stops fetching a
// paused queue's jobs at its next poll and starts again when it is resumed) and runner commands
// (restart, stop) for this runner or for every runner. Commands for every runner are taken by
// each runner started before the command was given.
import type { Db } from '../db.ts'
import { QUEUES, type QueueName } from '../jobs/queues.ts'
import type { Logger } from '../log.ts'

export type RunnerCommand = 'restart' | 'stop'

export interface ControlOptions {
  db: Db
  runnerId: string
  /** When this runner started (commands given before it are not for it). */
  startedAt: Date
  pollMs: number
  log: Logger
  onPausedChange: (paused: ReadonlySet<QueueName>) => Promise<void>
  /** Carries out a command; resolves with a result text once done (restart may never return). */
  onCommand: (command: RunnerCommand, id: string) => Promise<string>
}

export class Control {
  #timer: ReturnType<typeof setTimeout> | undefined
  #paused = new Set<QueueName>()
  #seen = new Set<string>()
  #stopped = false
  #polling: Promise<void> = Promise.resolve()

  constructor(readonly options: ControlOptions) {}

  get paused(): ReadonlySet<QueueName> {
    return this.#paused
  }

  /** Reads paused queues once (before workers start), then polls. */
  async start(): Promise<void> {
    await this.#readPaused()
    this.#schedule()
  }

  stop(): Promise<void> {
    this.#stopped = true
    clearTimeout(this.#timer)
    return this.#polling
  }

  #schedule(): void {
    if (this.#stopped) return
    this.#timer = setTimeout(() => {
      this.#polling = this.poll().finally(() => this.#schedule())
    }, this.options.pollMs)
    this.#timer.unref()
  }

  async poll(): Promise<void> {
    try {
      await this.#readPaused()
      await this.#readCommands()
    } catch (error) {
      await this.options.log.warn('scheduler', 'Reading paused queues and commands failed', { error })
    }
  }

  async #readPaused(): Promise<void> {
    const { rows } = await this.options.db.query<{ name: string }>('select name from public.paused_queues')
    const paused = new Set(
      rows.map((r) => r.name).filter((n): n is QueueName => (QUEUES as readonly string[]).includes(n)),
    )
    const changed = paused.size !== this.#paused.size || [...paused].some((q) => !this.#paused.has(q))
    if (!changed) return
    this.#paused = paused
    await this.options.onPausedChange(paused)
  }

  async #readCommands(): Promise<void> {
    const { db, runnerId, startedAt } = this.options
    const { rows } = await db.query<{ id: string; command: RunnerCommand; runner_id: string | null }>(
      `select id, command, runner_id from public.runner_commands
        where created_at >= $2
          and ((runner_id = $1 and status in ('pending', 'acknowledged')) or runner_id is null)
        order by created_at`,
      [runnerId, startedAt],
    )
    for (const row of rows) {
      if (this.#seen.has(row.id) || this.#stopped) continue
      this.#seen.add(row.id)
      await db.query(
        `update public.runner_commands set status = 'acknowledged', acknowledged_at = now()
          where id = $1 and status = 'pending'`,
        [row.id],
      )
      await this.options.log.info('scheduler', `Runner ${runnerId}: ${row.command} requested`, {
        commandId: row.id,
      })
      try {
        const result = await this.options.onCommand(row.command, row.id)
        await this.#finish(row.id, 'done', result)
      } catch (error) {
        await this.#finish(row.id, 'failed', error instanceof Error ? error.message : String(error))
      }
    }
  }

  async #finish(id: string, status: 'done' | 'failed', result: string): Promise<void> {
    await this.options.db.query(
      `update public.runner_commands set status = $2, result = left($3, 1000), completed_at = now()
        where id = $1 and status <> 'done'`,
      [id, status, result],
    )
  }

  /** Marks a command done before the process exits (a restart cannot report afterwards). */
  finish(id: string, result: string): Promise<void> {
    return this.#finish(id, 'done', result)
  }
}
