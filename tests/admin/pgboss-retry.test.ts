// Retry from the admin tab against the runner's own pg-boss: a job pg-boss failed for good comes
// back when the operator retries it, pg-boss works it again, and once it has had its queue's
// attempts plus the manual allowance, Retry is refused with 422 and the job stays failed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { db, dbUrl } from '../../stack/gateway/test/helpers.ts'
import { admin, signedInAdmin } from './helpers.ts'

interface Job {
  id: string
  data: Record<string, unknown>
}
interface Boss {
  start(): Promise<unknown>
  stop(options: { graceful: boolean }): Promise<void>
  createQueue(name: string, options: Record<string, unknown>): Promise<void>
  deleteQueue(name: string): Promise<void>
  send(name: string, data: object): Promise<string | null>
  fetch(name: string): Promise<Job[]>
  fail(name: string, id: string, data: object): Promise<unknown>
}
type BossConstructor = new (options: Record<string, unknown>) => Boss

// A queue of its own, so a running runner never takes these jobs.
const queue = `admin-retry-test-${process.pid}-${Date.now()}`
let boss: Boss
let operator: Awaited<ReturnType<typeof signedInAdmin>>

beforeAll(async () => {
  const { PgBoss } = (await import('pg-boss')) as unknown as { PgBoss: BossConstructor }
  boss = new PgBoss({ connectionString: dbUrl, migrate: false, schedule: false, supervise: false, max: 2 })
  await boss.start()
  // One automatic attempt (retryLimit 0), so the allowance is 3 more by hand: 4 at most.
  await boss.createQueue(queue, { policy: 'standard', retryLimit: 0 })
  operator = await signedInAdmin()
})

afterAll(async () => {
  await boss.deleteQueue(queue)
  await boss.stop({ graceful: false })
})

/** The worker's side: pg-boss hands the job out and it throws. */
async function runAndFail(message: string): Promise<string> {
  const [job] = await boss.fetch(queue)
  if (!job) throw new Error('pg-boss had no job to hand out')
  await boss.fail(queue, job.id, { message })
  return job.id
}

describe('Retry with the runner pg-boss', () => {
  it('a job pg-boss failed is worked again after Retry, until its attempts run out', async () => {
    const id = await boss.send(queue, { probe: true })
    expect(await runAndFail('first run failed')).toBe(id)

    const listed = await admin<Record<string, unknown>[]>(operator, 'retries')
    expect(listed.body.find((job) => job.id === id)).toMatchObject({
      queue,
      jobType: queue,
      attempts: 1,
      maxAttempts: 4,
      error: 'first run failed',
    })

    for (let attempt = 2; attempt <= 4; attempt++) {
      const retried = await admin(operator, `retries/${id}/retry`, 'POST')
      expect(retried, `retry before attempt ${attempt}`).toEqual({
        status: 200,
        body: { id, queue, state: 'retry' },
      })
      expect(await runAndFail(`run ${attempt} failed`), 'pg-boss hands the retried job out again').toBe(id)
    }

    const { rows } = await db().query('select state::text, retry_count from pgboss.job where id = $1', [id])
    expect(rows).toEqual([{ state: 'failed', retry_count: 3 }])
    const refused = await admin(operator, `retries/${id}/retry`, 'POST')
    expect(refused).toEqual({
      status: 422,
      body: {
        error: 'This job has had 4 of 4 attempts and cannot be retried again. Fix the cause, then delete it.',
        attempts: 4,
        maxAttempts: 4,
      },
    })
    expect(await boss.fetch(queue)).toEqual([])

    expect(await admin(operator, `retries/${id}`, 'DELETE')).toEqual({
      status: 200,
      body: { id, deleted: true },
    })
    expect((await db().query('select 1 from pgboss.job where id = $1', [id])).rowCount).toBe(0)
  })
})
