// The test stack's database: what the platform layer promises our migrations and the gateway.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrationFiles } from '../src/db.ts'

const dbUrl = process.env.SUPABASE_DB_URL
if (!dbUrl) throw new Error('SUPABASE_DB_URL is not set: run this through `npm test`.')

describe('local database', () => {
  const client = new pg.Client({ connectionString: dbUrl })
  beforeAll(() => client.connect())
  afterAll(() => client.end())

  it('preloads pg_cron and offers pgTAP', async () => {
    const preload = await client.query('show shared_preload_libraries')
    expect(preload.rows[0].shared_preload_libraries).toContain('pg_cron')
    const available = await client.query(
      "select name from pg_available_extensions where name in ('pg_cron', 'pgtap', 'pgcrypto') order by name",
    )
    expect(available.rows.map((r) => r.name)).toEqual(['pg_cron', 'pgcrypto', 'pgtap'])
  })

  it('has the Supabase roles, with authenticator able to switch to each API role', async () => {
    const roles = await client.query(
      "select rolname, rolbypassrls from pg_roles where rolname in ('anon','authenticated','service_role','authenticator') order by rolname",
    )
    expect(roles.rows).toEqual([
      { rolname: 'anon', rolbypassrls: false },
      { rolname: 'authenticated', rolbypassrls: false },
      { rolname: 'authenticator', rolbypassrls: false },
      { rolname: 'service_role', rolbypassrls: true },
    ])
    const url = new URL(dbUrl)
    url.username = 'authenticator'
    const authenticator = new pg.Client({ connectionString: url.toString() })
    await authenticator.connect()
    try {
      for (const role of ['anon', 'authenticated', 'service_role']) {
        await authenticator.query(`set role ${role}`)
        const current = await authenticator.query('select current_user')
        expect(current.rows[0].current_user).toBe(role)
        await authenticator.query('reset role')
      }
      await expect(authenticator.query('set role postgres')).rejects.toThrow(/permission denied/)
    } finally {
      await authenticator.end()
    }
  })

  it('answers auth.uid(), auth.role(), auth.email() and auth.jwt() from the request claims, null without them', async () => {
    await client.query('begin')
    try {
      const empty = await client.query('select auth.uid() as uid, auth.role() as role, auth.jwt() as jwt')
      expect(empty.rows[0]).toEqual({ uid: null, role: null, jwt: null })
      await client.query("select set_config('request.jwt.claims', '', true)")
      const blank = await client.query('select auth.uid() as uid')
      expect(blank.rows[0].uid).toBeNull()
      const claims = {
        sub: '5d8c1f9e-3d6b-4a3e-9a0f-1f2e3d4c5b6a',
        role: 'authenticated',
        email: 'a@b.test',
        app_metadata: { role: 'admin' },
      }
      await client.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify(claims)])
      const set = await client.query(
        "select auth.uid() as uid, auth.role() as role, auth.email() as email, auth.jwt() -> 'app_metadata' ->> 'role' as app_role",
      )
      expect(set.rows[0]).toEqual({
        uid: claims.sub,
        role: 'authenticated',
        email: 'a@b.test',
        app_role: 'admin',
      })
    } finally {
      await client.query('rollback')
    }
  })

  it('has the storage helpers with hosted semantics', async () => {
    const result = await client.query(
      "select storage.foldername('u1/sub/avatar.png') as folders, storage.filename('u1/sub/avatar.png') as file, storage.extension('u1/sub/avatar.png') as ext",
    )
    expect(result.rows[0]).toEqual({ folders: ['u1', 'sub'], file: 'avatar.png', ext: 'png' })
  })

  it('records every migration file as applied', async () => {
    const applied = await client.query(
      'select version from supabase_migrations.schema_migrations order by version',
    )
    expect(applied.rows.map((r) => r.version)).toEqual(migrationFiles().map((m) => m.version))
  })
})
