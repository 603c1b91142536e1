// The workers under admission control, with the real pg-boss on the test Postgres and fed load
// readings: with the job limit at 1 a second job waits for the slot and, finding none in time,
// completes as deferred (not failed); a handler that found the machine too slow (a sign-in out of
// time) completes as deferred too; both are counted; a job waiting for its slot is named in the
// heartbeat meanwhile; once readings are calm two jobs run at once.
// Jobs are held by the test until it has seen what it waits for, so nothing hangs on timing.
import { randomUUID } from 'node:crypto'
import { PgBoss } from 'pg-boss'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DeferredForLoadError } from '../src/jobs/context.ts'
import type { QueueName } from '../src/jobs/queues.ts'
import { Logger } from '../src/log.ts'
import { Admission } from '../src/ops/admission.ts'
import type { LoadReading } from '../src/ops/admission-policy.ts'
import { type QueueHandler, Workers } from '../src/ops/workers.ts'
import { adminDb, closeAdminDb, env } from './helpers/fixtures.ts'
import { waitFor } from './helpers/process.ts'

const queue = `test.admit-${randomUUID().slice(0, 8)}` as QueueName
const shutdown = new AbortController()
let boss: PgBoss

beforeAll(async () => {
  boss = new PgBoss({
    connectionString: env('SUPABASE_DB_URL'),
    schema: 'pgboss',
    migrate: false,
    schedule: false,
    supervise: false,
    max: 3,
  })
  await boss.start()
  await boss.createQueue(queue, { retryLimit: 0, expireInSeconds: 900 })
})

afterAll(async () => {
  shutdown.abort()
  await boss.deleteQueue(queue).catch(() => undefined)
  await boss.stop({ graceful: false }).catch(() => undefined)
  await closeAdminDb()
})

const settled = (id: string | null) =>
  waitFor(`job ${id} to settle`, async () => {
    const { rows } = await adminDb().query<{ state: string; output: unknown }>(
      'select state, output from pgboss.job where name = $1 and id = $2',
      [queue, id],
    )
    const row = rows[0]
    return row && ['completed', 'failed'].includes(row.state) ? row : undefined
  })

/** Two workers of the test queue under `admission`, the heartbeat's start and end told to the test. */
function admittedWorkers(
  admission: Admission,
  handler: QueueHandler,
  options: { shutdown: AbortSignal; admissionWaitMs: number; named: Set<string>; ended?: Set<string> },
): Workers {
  return new Workers({
    boss,
    concurrency: { [queue]: 2 } as Record<QueueName, number>,
    timeLimitMs: { [queue]: 120_000 } as Record<QueueName, number>,
    pollMs: 500,
    handlers: { [queue]: handler } as Record<QueueName, QueueHandler>,
    shutdown: options.shutdown,
    log: new Logger(undefined, {}, 'info', false),
    jobStarted: async (job) => {
      options.named.add(job.id)
    },
    jobEnded: async (id) => {
      options.ended?.add(id)
    },
    admission,
    admissionWaitMs: options.admissionWaitMs,
    admittedQueues: new Set([queue]),
  })
}

describe('workers under admission control', () => {
  it('defer what finds no slot or a slow machine, and run more again when calm', async () => {
    let reading: LoadReading = { lagMs: 900, runQueuePerCore: 0.5 }
    const admission = new Admission({ maxJobs: 2, maxOpens: 2, intervalMs: 0, readLoad: () => reading })
    admission.sample()
    expect(admission.stats.jobs).toBe(1)

    const started = new Set<string>()
    // jobs the heartbeat names: a waiting job too, or another runner would reap it as orphaned
    const named = new Set<string>()
    const ended = new Set<string>()
    const holds = new Map<string, () => void>()
    const handler: QueueHandler = async (data) => {
      const { kind, name } = data as { kind: string; name: string }
      started.add(name)
      if (kind === 'slow') throw new DeferredForLoadError('Signing in @someone was slow')
      if (kind === 'hold') await new Promise<void>((resolve) => holds.set(name, resolve))
      return { done: name }
    }
    const workers = admittedWorkers(admission, handler, {
      shutdown: shutdown.signal,
      admissionWaitMs: 300,
      named,
      ended,
    })
    await workers.startQueue(queue)

    const first = await boss.send(queue, { kind: 'hold', name: 'first' })
    await waitFor('the first job to start', async () => holds.has('first'))
    const second = await boss.send(queue, { kind: 'quick', name: 'second' })
    // the only slot is held: the second job is put off, its handler never ran
    expect(await settled(second)).toEqual({ state: 'completed', output: { deferred: 'the runner is busy' } })
    expect(started.has('second')).toBe(false)
    expect(named.has(second as string) && ended.has(second as string)).toBe(true)
    holds.get('first')?.()
    expect(await settled(first)).toEqual({ state: 'completed', output: { done: 'first' } })

    const slow = await boss.send(queue, { kind: 'slow', name: 'slow' })
    expect(await settled(slow)).toEqual({
      state: 'completed',
      output: { deferred: 'Signing in @someone was slow' },
    })
    expect(admission.stats.deferred).toBe(2)

    // calm again: after three calm readings the limit is 2 and two held jobs run side by side
    reading = { lagMs: 2, runQueuePerCore: 0.2 }
    for (let i = 0; i < 3; i++) admission.sample()
    expect(admission.stats.jobs).toBe(2)
    const a = await boss.send(queue, { kind: 'hold', name: 'a' })
    const b = await boss.send(queue, { kind: 'hold', name: 'b' })
    await waitFor('both jobs to run at once', async () => holds.has('a') && holds.has('b'))
    expect(admission.stats.runningJobs).toBe(2)
    holds.get('a')?.()
    holds.get('b')?.()
    expect((await settled(a)).state).toBe('completed')
    expect((await settled(b)).state).toBe('completed')
    expect(admission.stats.deferred).toBe(2)
    await workers.stopAll()
    admission.stop()
  }, 60_000)

  it('give a job still waiting for its slot back as deferred when the runner shuts down', async () => {
    const admission = new Admission({
      maxJobs: 1,
      maxOpens: 1,
      intervalMs: 0,
      readLoad: () => ({ lagMs: 2, runQueuePerCore: 0.2 }),
    })
    const stopping = new AbortController()
    const named = new Set<string>()
    let hold = () => {}
    const handler: QueueHandler = async (data) => {
      if ((data as { kind: string }).kind === 'hold') await new Promise<void>((resolve) => (hold = resolve))
      return { done: true }
    }
    const workers = admittedWorkers(admission, handler, {
      shutdown: stopping.signal,
      admissionWaitMs: 60_000,
      named,
    })
    await workers.startQueue(queue)
    const held = await boss.send(queue, { kind: 'hold' })
    await waitFor('the first job to hold the only slot', async () => admission.stats.runningJobs === 1)
    const waiting = await boss.send(queue, { kind: 'quick' })
    await waitFor('the second job to wait for a slot', async () => named.has(waiting as string))
    stopping.abort(new Error('The runner is shutting down.'))
    expect(await settled(waiting)).toEqual({
      state: 'completed',
      output: { deferred: 'the runner is shutting down' },
    })
    hold()
    expect(await settled(held)).toEqual({ state: 'completed', output: { done: true } })
    await workers.stopAll()
    admission.stop()
  }, 60_000)
})
