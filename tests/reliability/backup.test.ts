// Backup and restore of the local stack (stack/src/backup.ts, `npm run db:backup` / `db:restore`):
// a pg_dump taken inside one snapshot while other suites keep writing, restored into a scratch
// database, holds exactly the rows that snapshot saw, table by table, in every schema we own.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { dumpDatabase, restoreDatabase } from '../../stack/src/backup.ts'
import { stackConfig } from '../../stack/src/config.ts'
import { db } from '../functions/helpers.ts'

const SCHEMAS = ['public', 'auth', 'storage', 'pgboss', 'internal']
const scratch = `reliability_restore_${randomBytes(4).toString('hex')}`
const dir = mkdtempSync(join(tmpdir(), 'reachflow-backup-'))

afterAll(async () => {
  await db().query(`drop database if exists ${scratch} with (force)`)
  rmSync(dir, { recursive: true, force: true })
})

async function rowCounts(client: pg.ClientBase): Promise<Record<string, number>> {
  const { rows } = await client.query<{ name: string }>(
    `select format('%I.%I', n.nspname, c.relname) as name
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and n.nspname = any($1) and not c.relispartition
      order by 1`,
    [SCHEMAS],
  )
  const counts: Record<string, number> = {}
  for (const { name } of rows)
    counts[name] = Number((await client.query<{ n: string }>(`select count(*) as n from ${name}`)).rows[0]?.n)
  return counts
}

describe('backup and restore', () => {
  it('a dump restored into a scratch database has the same rows in every table as the snapshot it came from', async () => {
    const config = stackConfig()
    const file = join(dir, 'reachflow.dump')
    const source = await db().connect()
    let before: Record<string, number>
    try {
      await source.query('begin isolation level repeatable read read only')
      const snapshot =
        (await source.query<{ id: string }>('select pg_export_snapshot() as id')).rows[0]?.id ?? ''
      before = await rowCounts(source)
      dumpDatabase(config, file, snapshot)
    } finally {
      await source.query('rollback')
      source.release()
    }
    restoreDatabase(config, file, scratch)
    const restored = new pg.Client({ connectionString: config.dbUrl.replace(/\/postgres$/, `/${scratch}`) })
    await restored.connect()
    try {
      const after = await rowCounts(restored)
      expect(after).toEqual(before)
      // Not empty tables compared with empty ones: the seed's users and platforms came through.
      expect(before['auth.users']).toBeGreaterThan(1)
      expect(before['public.platforms']).toBeGreaterThan(0)
      expect(Object.keys(before).length).toBeGreaterThan(30)
      // Sealed credentials come back byte for byte (the key is not in the database, by design).
      const sample = await db().query(
        'select account_id, ciphertext from public.social_account_credentials order by account_id limit 3',
      )
      for (const row of sample.rows) {
        const copy = await restored.query(
          'select ciphertext from public.social_account_credentials where account_id = $1',
          [row.account_id],
        )
        if (copy.rowCount) expect(copy.rows[0]?.ciphertext).toBe(row.ciphertext)
      }
    } finally {
      await restored.end()
    }
  }, 120_000)
})
