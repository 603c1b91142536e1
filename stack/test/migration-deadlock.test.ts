// A migration's transaction that PostgreSQL ends as a deadlock's victim (its DDL's table locks against
// the row locks pg_cron's jobs hold, taken in another order) rolled back whole, so the file is run
// again; any other error fails at once and names the file. The deadlock is made on purpose: the
// other session holds a table the file wants and then asks for one the file holds, and only the
// file's session has the shorter deadlock_timeout (5 s against 60 s: the check runs once, that long
// after a session starts to wait, so the cycle is complete by then), so it is always the one
// PostgreSQL ends.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { stackConfig } from '../src/config.ts'
import { DEADLOCK_ATTEMPTS, runSqlFile } from '../src/db.ts'

const config = stackConfig('test')
const schema = `migration_deadlock_${process.pid}`
const dir = mkdtempSync(join(tmpdir(), 'migration-deadlock-'))
const migration = new pg.Client({ connectionString: config.adminDbUrl })
const other = new pg.Client({ connectionString: config.adminDbUrl })

function sqlFile(name: string, sql: string): string {
  const file = join(dir, name)
  writeFileSync(file, sql)
  return file
}

/** How many times a file ran: its first statement draws from this sequence, which no rollback undoes. */
async function attempts(): Promise<number> {
  const { rows } = await other.query<{ n: string }>(
    `select case when is_called then last_value else 0 end as n from ${schema}.attempts`,
  )
  return Number(rows[0]?.n)
}

beforeAll(async () => {
  await migration.connect()
  await other.connect()
  await migration.query(`set deadlock_timeout = '5s'`)
  await other.query(`set deadlock_timeout = '60s'`)
  await other.query(`create schema ${schema}`)
  await other.query(
    `create sequence ${schema}.attempts;
     create table ${schema}.a (id int); create table ${schema}.b (id int); create table ${schema}.applied (id int)`,
  )
})

afterAll(async () => {
  await other.query(`drop schema if exists ${schema} cascade`)
  await migration.end()
  await other.end()
  rmSync(dir, { recursive: true, force: true })
})

it('runs a file again after PostgreSQL ended its transaction to break a deadlock, and applies it once', async () => {
  const file = sqlFile(
    'deadlock.sql',
    `select nextval('${schema}.attempts');
     lock table ${schema}.b in access exclusive mode;
     lock table ${schema}.a in access exclusive mode;`,
  )
  const log: string[] = []
  await other.query('begin')
  await other.query(`lock table ${schema}.a in row exclusive mode`)
  const applying = runSqlFile(
    migration,
    file,
    'Migration deadlock.sql',
    `insert into ${schema}.applied values (1)`,
    (line) => log.push(line),
  )
  // the file holds b and waits for a ...
  await expect
    .poll(
      async () =>
        (
          await other.query(
            `select 1 from pg_locks where relation = '${schema}.a'::regclass and mode = 'AccessExclusiveLock' and not granted`,
          )
        ).rowCount,
      { timeout: 30_000, interval: 50 },
    )
    .toBe(1)
  // ... and this session, holding a, waits for b: the cycle. The file's transaction is ended and
  // rolls back, which lets this read through; the file's second attempt then waits for this commit.
  await other.query(`select count(*) from ${schema}.b`)
  await other.query('commit')
  await applying
  expect(await attempts()).toBe(2)
  expect(log).toEqual([
    `Migration deadlock.sql: deadlock with concurrent work, rolled back; attempt 2 of ${DEADLOCK_ATTEMPTS}`,
  ])
  const applied = await other.query(`select id from ${schema}.applied`)
  expect(applied.rows).toEqual([{ id: 1 }])
}, 60_000)

it('does not run a file again that failed on its own, and names the file and the line', async () => {
  const before = await attempts()
  const file = sqlFile('broken.sql', `select nextval('${schema}.attempts');\nselect no_such_column;`)
  await expect(runSqlFile(migration, file, 'Migration broken.sql')).rejects.toThrow(
    /^Migration broken\.sql failed \(line 2\): column "no_such_column" does not exist\. Fix the file and run again\.$/,
  )
  expect(await attempts()).toBe(before + 1)
})
