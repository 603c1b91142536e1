// Runner processes for the tests that need the real thing: `node --import tsx runner/src/main.ts`
// with the stack's environment, fast polling, and whatever the test overrides. Its output is kept
// for when a test fails; its heartbeat row tells its runner id.
import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Admission marks out of reach for runners that tests start: the test machine's load is other
 * suites', and a job a test queues by hand that the runner put off would wait for a scheduler round
 * that may not come. Admission itself is tested with fed readings (admission-*.test.ts).
 */
export const TEST_ADMISSION_ENV = { RUNNER_ADMISSION_LAG_MS: '10000', RUNNER_ADMISSION_RUN_QUEUE: '64' }

import { adminDb } from './fixtures.ts'

const repoRoot = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..')
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export class RunnerProcess {
  readonly output: string[] = []
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>

  private constructor(readonly child: ChildProcess) {
    const collect = (chunk: Buffer) => {
      this.output.push(chunk.toString())
      if (this.output.length > 2000) this.output.splice(0, 1000)
    }
    child.stdout?.on('data', collect)
    child.stderr?.on('data', collect)
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  }

  /** `nodeArgs` go before the script (a benchmark's `--cpu-prof`: NODE_OPTIONS refuses it). */
  static start(env: Record<string, string> = {}, nodeArgs: string[] = []): RunnerProcess {
    const script = join(repoRoot, 'runner', 'src', 'main.ts')
    const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script], {
      cwd: repoRoot,
      env: {
        ...process.env,
        RUNNER_POLL_MS: '500',
        RUNNER_HEARTBEAT_MS: '1000',
        RUNNER_TYPING_FACTOR: '0',
        RUNNER_PACING_FACTOR: '0',
        RUNNER_UNCERTAIN_CHECK_AFTER_MS: '0',
        ...TEST_ADMISSION_ENV,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    return new RunnerProcess(child)
  }

  get pid(): number {
    if (!this.child.pid) throw new Error('runner did not start')
    return this.child.pid
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null
  }

  /** The runner's id once its heartbeat row exists. */
  async runnerId(timeoutMs = 60_000): Promise<string> {
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline) {
      if (!this.running) throw new Error(`runner exited while starting:\n${this.tail()}`)
      const { rows } = await adminDb().query<{ runner_id: string }>(
        `select runner_id from public.runner_heartbeats where pid = $1 and status = 'running' order by started_at desc limit 1`,
        [this.pid],
      )
      if (rows[0]) return rows[0].runner_id
      await sleep(200)
    }
    throw new Error(`no heartbeat from runner ${this.pid}:\n${this.tail()}`)
  }

  kill(signal: NodeJS.Signals): void {
    if (this.running) this.child.kill(signal)
  }

  /** Stops it gracefully if still running; SIGKILL after waitMs. */
  async stop(waitMs = 30_000): Promise<void> {
    if (!this.running) return
    this.kill('SIGTERM')
    const done = await Promise.race([this.exited.then(() => true), sleep(waitMs).then(() => false)])
    if (!done) {
      this.kill('SIGKILL')
      await this.exited
    }
  }

  tail(lines = 40): string {
    return this.output.join('').split('\n').slice(-lines).join('\n')
  }
}

/** Polls until check returns a value other than undefined/false, or fails after timeoutMs. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 60_000,
  everyMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`)
    await sleep(everyMs)
  }
}

/**
 * Waits until `check` passes for as long as the work keeps moving: it fails only when `progress`
 * (a signature of the work's state, e.g. lead states and attempts) has not changed for `stallMs`,
 * or after `maxMs` in all. On a loaded machine every step is slower but still moves, so a fixed
 * deadline measures the machine; a stall measures the system.
 */
export async function waitWhileProgressing<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  progress: () => Promise<string>,
  stallMs: number,
  {
    everyMs = 1_000,
    maxMs = 30 * 60_000,
    explain,
  }: {
    everyMs?: number
    maxMs?: number
    /** What the failure message should add about the system's state (jobs, rows, the runner's log). */
    explain?: () => Promise<string>
  } = {},
): Promise<T> {
  const fail = async (message: string): Promise<never> => {
    const detail = explain
      ? await explain().catch((error: Error) => `(explain failed: ${error.message})`)
      : ''
    throw new Error(detail ? `${message}\n${detail}` : message)
  }
  const started = Date.now()
  let last = await progress()
  let movedAt = Date.now()
  for (;;) {
    const value = await check()
    if (value !== undefined && value !== false) return value
    const now = await progress()
    if (now !== last) {
      last = now
      movedAt = Date.now()
    }
    if (Date.now() - movedAt > stallMs)
      await fail(`Waiting for ${what}: nothing moved for ${stallMs / 1000} s (last state ${last})`)
    if (Date.now() - started > maxMs) await fail(`Waiting for ${what}: still moving after ${maxMs / 1000} s`)
    await sleep(everyMs)
  }
}

/**
 * The alone-suites own the system: other suites' leftovers (queued jobs, active accounts the
 * scheduler would keep queueing inbox syncs for) are cleared so the runners work only what the
 * test made. Accounts of the given customers are left as they are. The returned function puts the
 * accounts' and campaigns' statuses back, so suites after this one (the admin e2e reads the seeded
 * flagged and paused accounts) still see the seed.
 */
export async function quietOtherWork(keepUserIds: string[] = []): Promise<() => Promise<void>> {
  const db = adminDb()
  const accounts = await db.query<{ id: string; status: string }>(
    `update public.social_accounts a set status = 'inactive'
       from public.social_accounts old_row
      where a.id = old_row.id and not (a.user_id = any($1::uuid[])) and a.status <> 'inactive'
  returning a.id, old_row.status`,
    [keepUserIds],
  )
  const campaigns = await db.query<{ id: string; status: string }>(
    `update public.campaigns c set status = 'paused'
       from public.campaigns old_row
      where c.id = old_row.id and c.status in ('queued', 'running', 'active')
        and not (c.user_id = any($1::uuid[]))
  returning c.id, old_row.status`,
    [keepUserIds],
  )
  await db.query(`delete from pgboss.job where state in ('created', 'retry')`)
  await db.query('delete from public.paused_queues')
  return async () => {
    const restoreDb = adminDb()
    for (const [table, rows] of [
      ['social_accounts', accounts.rows],
      ['campaigns', campaigns.rows],
    ] as const) {
      if (rows.length === 0) continue
      await restoreDb.query(
        `update public.${table} t set status = r.status
           from unnest($1::uuid[], $2::text[]) as r(id, status) where t.id = r.id`,
        [rows.map((row) => row.id), rows.map((row) => row.status)],
      )
    }
  }
}

/**
 * Enqueues a job as the scheduler does (the queue's settings, its singleton key); when the scheduler
 * queued the same one first, that job's id.
 */
export async function enqueue(
  queue: string,
  data: Record<string, string>,
  singletonKey: string,
): Promise<string> {
  const db = adminDb()
  const { rows } = await db.query<{ id: string | null }>('select internal.enqueue_job($1, $2, $3) as id', [
    queue,
    data,
    singletonKey,
  ])
  const id =
    rows[0]?.id ??
    (
      await db.query<{ id: string }>(
        `select id from pgboss.job where name = $1 and singleton_key = $2 and state < 'completed'
          order by created_on desc limit 1`,
        [queue, singletonKey],
      )
    ).rows[0]?.id
  if (!id) throw new Error(`${queue} job not queued`)
  return id
}

export async function jobState(id: string): Promise<{ state: string; output: unknown } | undefined> {
  const { rows } = await adminDb().query<{ state: string; output: unknown }>(
    'select state, output from pgboss.job where id = $1',
    [id],
  )
  return rows[0]
}
