// The runner's row in runner_heartbeats: pid, host, CPU and memory of the runner with its
// Chromium processes, uptime, the jobs it works and its admission limits, refreshed every few seconds and at every job
// start and end (so the row always names the jobs this runner holds). The same beat releases the
// jobs of runners that died: a runner whose liveness lock is gone (leases.ts) is dead for sure,
// and its active jobs are failed so pg-boss retries them and the scheduler can queue new ticks.
import type { Db } from '../db.ts'
import { QUEUES } from '../jobs/queues.ts'
import type { AccountLeases } from '../leases.ts'
import type { Logger } from '../log.ts'
import { UsageMeter } from '../process-stats.ts'
import type { AdmissionStats } from './admission.ts'

export interface CurrentJob {
  id: string
  name: string
  accountId?: string
  startedAt: string
}

/** A job active this long without any live runner naming it is orphaned (runners name theirs at once). */
const ORPHAN_GRACE_SECONDS = 30

export interface HeartbeatOptions {
  db: Db
  runnerId: string
  host: string
  version: string
  intervalMs: number
  leases: AccountLeases
  log: Logger
  /** Fails jobs of a dead runner the pg-boss way (retry policy applies). */
  failJobs: (jobs: { name: string; id: string }[], reason: string) => Promise<void>
  /** More upkeep on the heartbeat's rhythm (errors are ignored: the next beat tries again). */
  onBeat?: () => Promise<void>
  /** Admission control's limits and counts now (the `admission` column; null without it). */
  admission?: () => AdmissionStats
}

export class Heartbeat {
  readonly jobs = new Map<string, CurrentJob>()
  readonly meter = new UsageMeter()
  #timer: ReturnType<typeof setInterval> | undefined
  #status: 'running' | 'stopping' | 'stopped' = 'running'
  #writing: Promise<void> = Promise.resolve()
  readonly startedAt = Date.now()

  constructor(readonly options: HeartbeatOptions) {}

  async start(): Promise<void> {
    await this.#write()
    await this.reapDeadRunners()
    this.#timer = setInterval(() => {
      void this.beat()
    }, this.options.intervalMs)
    this.#timer.unref()
  }

  async beat(): Promise<void> {
    await this.#queueWrite()
    await this.reapDeadRunners().catch(() => undefined)
    await this.options.onBeat?.().catch(() => undefined)
  }

  jobStarted(job: CurrentJob): Promise<void> {
    this.jobs.set(job.id, job)
    return this.#queueWrite()
  }

  jobEnded(id: string): Promise<void> {
    this.jobs.delete(id)
    return this.#queueWrite()
  }

  async setStatus(status: 'running' | 'stopping' | 'stopped'): Promise<void> {
    this.#status = status
    await this.#queueWrite()
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer)
    this.jobs.clear()
    await this.setStatus('stopped')
  }

  /** Fails the active jobs of runners that are gone, and forgets runners stopped a day ago. */
  async reapDeadRunners(): Promise<void> {
    const { db, runnerId, leases } = this.options
    const { rows } = await db.query<{ runner_id: string; current_jobs: CurrentJob[]; last_seen_at: Date }>(
      `select runner_id, current_jobs, last_seen_at from public.runner_heartbeats
        where runner_id <> $1 and status <> 'stopped'`,
      [runnerId],
    )
    for (const row of rows) {
      if (await leases.isRunnerAlive(row.runner_id)) continue
      const ids = row.current_jobs.map((j) => j.id).filter((id) => typeof id === 'string')
      // only jobs that runner itself started: a retry another runner picked up since is left alone
      const { rows: stuck } = await db.query<{ id: string; name: string }>(
        `select id, name from pgboss.job
          where id = any($1::uuid[]) and state = 'active' and started_on <= $2`,
        [ids, row.last_seen_at],
      )
      // stopped before its jobs fail: a failed job says its runner stopped, and whoever reads the job
      // then finds the runner stopped too (a reaper that dies in between leaves orphans, swept below)
      await db.query(
        `update public.runner_heartbeats set status = 'stopped', current_jobs = '[]' where runner_id = $1`,
        [row.runner_id],
      )
      if (stuck.length > 0)
        await this.options.failJobs(stuck, `Runner ${row.runner_id} stopped while working it`)
      await this.options.log.warn(
        'scheduler',
        `Runner ${row.runner_id} is gone; released ${stuck.length} of its jobs`,
        {
          runner: row.runner_id,
          jobs: stuck.map((j) => j.name),
        },
      )
    }
    // a runner killed between fetching a job and naming it in its heartbeat left a job no one holds
    const { rows: orphans } = await db.query<{ id: string; name: string }>(
      `select j.id, j.name from pgboss.job j
        where j.name = any($1) and j.state = 'active' and j.started_on < now() - make_interval(secs => $2)
          and not exists (select 1 from public.runner_heartbeats h cross join lateral jsonb_array_elements(h.current_jobs) c
                           where h.status <> 'stopped' and c ->> 'id' = j.id::text)`,
      [QUEUES, ORPHAN_GRACE_SECONDS],
    )
    if (orphans.length > 0) await this.options.failJobs(orphans, 'No runner holds this job')
    await db.query(
      `delete from public.runner_heartbeats where status = 'stopped' and last_seen_at < now() - interval '1 day'`,
    )
  }

  #queueWrite(): Promise<void> {
    this.#writing = this.#writing.then(() => this.#write()).catch(() => undefined)
    return this.#writing
  }

  async #write(): Promise<void> {
    const { db, runnerId, host, version } = this.options
    const usage = await this.meter.sample()
    await db.query(
      `insert into public.runner_heartbeats
         (runner_id, host, pid, version, cpu_percent, memory_mb, memory_percent, load_average, uptime_seconds,
          current_jobs, status, started_at, last_seen_at, admission)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, to_timestamp($12::float8 / 1000), now(), $13)
       on conflict (runner_id) do update set
         cpu_percent = excluded.cpu_percent, memory_mb = excluded.memory_mb, memory_percent = excluded.memory_percent,
         load_average = excluded.load_average, uptime_seconds = excluded.uptime_seconds,
         current_jobs = excluded.current_jobs, status = excluded.status, last_seen_at = now(),
         admission = excluded.admission`,
      [
        runnerId,
        host,
        process.pid,
        version,
        usage.cpuPercent.toFixed(2),
        usage.memoryMb.toFixed(2),
        usage.memoryPercent.toFixed(2),
        usage.loadAverage.map((n) => n.toFixed(2)),
        Math.floor((Date.now() - this.startedAt) / 1000),
        JSON.stringify([...this.jobs.values()]),
        this.#status,
        this.startedAt,
        this.options.admission ? JSON.stringify(this.options.admission()) : null,
      ],
    )
  }
}
