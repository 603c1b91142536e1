// The pg-boss schema the migrations install must be the one the runner's pinned pg-boss expects:
// the runner starts pg-boss with `migrate: false`, and the scheduler inserts jobs in SQL.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  installedPgBoss,
  PGBOSS_MIGRATION,
  pgbossMigrationSql,
} from '../scripts/generate-pgboss-migration.ts'

const repoRoot = join(import.meta.dirname, '..')
const dbUrl = process.env.SUPABASE_DB_URL ?? ''

interface Job {
  id: string
  data: { accountId: string }
}
interface Boss {
  start(): Promise<unknown>
  stop(options: { graceful: boolean }): Promise<void>
  createQueue(name: string, options: { policy: string }): Promise<void>
  deleteQueue(name: string): Promise<void>
  fetch(name: string): Promise<Job[]>
  complete(name: string, id: string): Promise<unknown>
  on(event: 'error', listener: (error: Error) => void): void
}
type BossConstructor = new (options: Record<string, unknown>) => Boss

describe('pg-boss schema', () => {
  const client = new pg.Client({ connectionString: dbUrl })
  beforeAll(() => client.connect())
  afterAll(() => client.end())

  it('runner/package.json pins the pg-boss that is installed', async () => {
    const runnerPackage = JSON.parse(readFileSync(join(repoRoot, 'runner', 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>
    }
    expect(runnerPackage.dependencies['pg-boss']).toBe((await installedPgBoss()).version)
  })

  it('the migrated schema version is the one that pg-boss version needs', async () => {
    const { rows } = await client.query<{ version: number }>('select version from pgboss.version')
    expect(rows).toEqual([{ version: (await installedPgBoss()).schemaVersion }])
  })

  it('the committed migration is exactly what that pg-boss generates', async () => {
    expect(readFileSync(PGBOSS_MIGRATION, 'utf8')).toBe(await pgbossMigrationSql())
  })

  it('pg-boss starts without migrating and works a job the SQL scheduler queued', async () => {
    const { PgBoss } = (await import('pg-boss')) as unknown as { PgBoss: BossConstructor }
    const boss = new PgBoss({
      connectionString: dbUrl,
      migrate: false,
      schedule: false,
      supervise: false,
      max: 2,
    })
    const errors: Error[] = []
    boss.on('error', (error) => errors.push(error))
    await boss.start()
    // A queue of its own, so a running runner cannot take the job first.
    const queue = `contract-test-${process.pid}-${Date.now()}`
    const accountId = crypto.randomUUID()
    try {
      await boss.createQueue(queue, { policy: 'short' })
      const queued = await client.query<{ id: string | null }>(
        'select internal.enqueue_job($1, $2, $3) as id',
        [queue, { accountId }, `account:${accountId}`],
      )
      expect(queued.rows[0]?.id).toMatch(/^[0-9a-f-]{36}$/)
      const [job] = await boss.fetch(queue)
      expect(job?.data).toEqual({ accountId })
      await boss.complete(queue, job?.id ?? '')
      const { rows } = await client.query<{ state: string }>('select state from pgboss.job where id = $1', [
        job?.id,
      ])
      expect(rows).toEqual([{ state: 'completed' }])
    } finally {
      await boss.deleteQueue(queue)
      await boss.stop({ graceful: false })
    }
    expect(errors).toEqual([])
  })
})
