// Upgrading a database that ran with pg-boss 10 (what production holds) to pg-boss 12: the two
// 20261126 migrations, as `supabase db push` applies them (as postgres, one transaction each), on a
// fresh hosted-shaped database holding pg-boss 10 jobs in every state. Waiting jobs must keep
// waiting, a job a runner held must come back as a retry, history must stay for the admin tab, and
// the runner's pg-boss 12 must then work the moved jobs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PREVIOUS_SCHEMA } from '../scripts/generate-pgboss-migration.ts'
import { stackConfig } from '../stack/src/config.ts'
import { destroyCluster, initCluster, migrate, startDb, withProjectDb } from '../stack/src/db.ts'

const PGBOSS_12 = '20261126000000'
const config = stackConfig('pgbossupgrade')

interface Boss {
  start(): Promise<unknown>
  stop(options: { graceful: boolean }): Promise<void>
  fetch(name: string): Promise<{ id: string; data: unknown }[]>
  complete(name: string, id: string): Promise<unknown>
  on(event: 'error', listener: (error: Error) => void): void
}
type BossConstructor = new (options: Record<string, unknown>) => Boss

const ids = {
  waiting: '00000000-0000-4000-8000-00000000b001',
  held: '00000000-0000-4000-8000-00000000b002',
  failed: '00000000-0000-4000-8000-00000000b003',
  done: '00000000-0000-4000-8000-00000000b004',
  later: '00000000-0000-4000-8000-00000000b005',
}

beforeAll(async () => {
  destroyCluster(config)
  initCluster(config)
  await startDb(config)
  await migrate(config, () => {}, { seed: false, before: PGBOSS_12 })
  await withProjectDb(config, async (client) => {
    const { rows } = await client.query<{ version: number }>('select version from pgboss.version')
    expect(rows).toEqual([{ version: 24 }]) // what production runs before the upgrade
    await client.query(
      `insert into pgboss.job (id, name, data, state, singleton_key, policy, retry_limit, retry_count, expire_in,
                               start_after, started_on, completed_on, output)
       values ($1, 'campaign.tick', '{"campaignId": "c1"}', 'created', 'campaign:c1', 'short', 0, 0, interval '15 minutes',
               now(), null, null, null),
              ($2, 'inbox.sync', '{"accountId": "a1"}', 'active', 'inbox:a1', 'short', 1, 0, interval '15 minutes',
               now() - interval '1 minute', now() - interval '1 minute', null, null),
              ($3, 'scrape.run', '{"scrapingCampaignId": "s1"}', 'failed', 'scraping:s1', 'short', 2, 2, interval '30 minutes',
               now() - interval '1 hour', now() - interval '1 hour', now() - interval '59 minutes', '{"message": "X said no"}'),
              ($4, 'account.test', '{"accountId": "a2"}', 'completed', 'account:a2', 'short', 1, 0, interval '10 minutes',
               now() - interval '2 hours', now() - interval '2 hours', now() - interval '2 hours', '{"ok": true}'),
              ($5, 'warmup.step', '{"accountId": "a3"}', 'created', 'warmup:a3:2026-11-26', 'short', 2, 0, interval '30 minutes',
               now() + interval '5 hours', null, null, null)`,
      [ids.waiting, ids.held, ids.failed, ids.done, ids.later],
    )
  })
  await migrate(config, () => {}, { seed: false })
}, 240_000)

afterAll(() => destroyCluster(config))

describe('pg-boss 10 to 12 upgrade', () => {
  it('moves every job into the pg-boss 12 schema and drops the old one', async () => {
    await withProjectDb(config, async (client) => {
      expect((await client.query('select version from pgboss.version')).rows).toEqual([{ version: 46 }])
      const old = await client.query('select 1 from pg_namespace where nspname = $1', [PREVIOUS_SCHEMA])
      expect(old.rowCount).toBe(0)
      const { rows } = await client.query<{
        id: string
        state: string
        singleton_key: string
        data: unknown
        expire_seconds: number
        retry_count: number
        ready: boolean
        output: unknown
      }>(
        `select id::text, state::text, singleton_key, data, expire_seconds, retry_count, start_after <= now() as ready, output
           from pgboss.job where id = any($1::uuid[]) order by id`,
        [Object.values(ids)],
      )
      expect(rows).toEqual([
        expect.objectContaining({
          id: ids.waiting,
          state: 'created',
          singleton_key: 'campaign:c1',
          expire_seconds: 900,
          ready: true,
        }),
        expect.objectContaining({
          id: ids.held,
          state: 'retry',
          singleton_key: 'inbox:a1',
          retry_count: 0,
          ready: true,
        }),
        expect.objectContaining({
          id: ids.failed,
          state: 'failed',
          retry_count: 2,
          output: { message: 'X said no' },
        }),
        expect.objectContaining({ id: ids.done, state: 'completed', expire_seconds: 600 }),
        expect.objectContaining({ id: ids.later, state: 'created', data: { accountId: 'a3' }, ready: false }),
      ])
    })
  })

  it('the scheduler queues into the new schema, and a moved singleton still holds its key', async () => {
    await withProjectDb(config, async (client) => {
      const again = await client.query<{ id: string | null }>(
        `select internal.enqueue_job('campaign.tick', '{"campaignId": "c1"}', 'campaign:c1') as id`,
      )
      expect(again.rows).toEqual([{ id: null }])
      const fresh = await client.query<{ id: string | null }>(
        `select internal.enqueue_job('campaign.tick', '{"campaignId": "c2"}', 'campaign:c2') as id`,
      )
      expect(fresh.rows[0]?.id).toMatch(/^[0-9a-f-]{36}$/)
    })
  })

  it("the runner's pg-boss 12 works the moved jobs", async () => {
    const { PgBoss } = (await import('pg-boss')) as unknown as { PgBoss: BossConstructor }
    // as the runner connects in production: reachflow_runner, no DDL rights
    const boss = new PgBoss({
      connectionString: config.runnerDbUrl,
      migrate: false,
      schedule: false,
      supervise: false,
      max: 2,
    })
    const errors: Error[] = []
    boss.on('error', (error) => errors.push(error))
    await boss.start()
    try {
      const [held] = await boss.fetch('inbox.sync')
      expect(held?.id).toBe(ids.held)
      await boss.complete('inbox.sync', ids.held)
      await withProjectDb(config, async (client) => {
        const { rows } = await client.query('select state::text from pgboss.job where id = $1', [ids.held])
        expect(rows).toEqual([{ state: 'completed' }])
      })
    } finally {
      await boss.stop({ graceful: false })
    }
    expect(errors).toEqual([])
  })
})
