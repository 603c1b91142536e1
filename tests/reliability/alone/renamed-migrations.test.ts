// A local database that applied migrations under versions the files no longer have (made before the
// migrations were renamed to follow the clock) is refused with the command that recreates it, rather
// than getting the renamed files applied a second time. Alone: its cluster takes the port every
// instance other than dev and test shares (as pgboss-upgrade's does).
import { afterAll, beforeAll, expect, it } from 'vitest'
import { stackConfig } from '../../../stack/src/config.ts'
import {
  destroyCluster,
  initCluster,
  migrate,
  migrationFiles,
  startDb,
  withProjectDb,
} from '../../../stack/src/db.ts'

const config = stackConfig('renamedmigrations')
const [first, second] = migrationFiles()

beforeAll(async () => {
  destroyCluster(config)
  initCluster(config)
  await startDb(config)
  await migrate(config, () => {}, { seed: false, before: second?.version })
}, 240_000)

afterAll(() => destroyCluster(config))

it('refuses a database that applied a migration under a version no file has', async () => {
  await withProjectDb(config, async (client) => {
    // What a database from before the renumbering holds: the first migration under its old version.
    await client.query(
      `update supabase_migrations.schema_migrations set version = '20261205100003' where version = $1`,
      [first?.version],
    )
  })
  await expect(migrate(config, () => {}, { seed: false, before: second?.version })).rejects.toThrow(
    /applied 1 migration under versions supabase\/migrations no longer has \(20261205100003\).*`npm run stack:reset`/,
  )
}, 120_000)
