// The `pgrst.*` settings of the role the gateway connects as (authenticator), read and reloaded as
// PostgREST 14 does. They change the whole gateway, so this file runs alone (vitest project
// runner-alone) and resets every setting it made.
//
// Sources: PostgREST 14 src/PostgREST/Config/Database.hs (queryDbSettings: role-and-database settings
// override role-wide ones; a database-only setting has no effect), src/PostgREST/Listener.hs and
// AppState.hs (retryingSchemaCacheLoad: 'reload schema' and an empty payload re-read the config
// before the schema cache, 'reload config' the config only, any other payload nothing),
// https://docs.postgrest.org/en/v14/references/configuration.html#in-database-configuration and
// https://docs.postgrest.org/en/v14/references/listener.html.
import { afterAll, describe, expect, it } from 'vitest'
import { raw, sql, useFixtures } from '../rest-helpers.ts'

const t = useFixtures('cfg')

const SETTINGS = ['db_max_rows', 'db_aggregates_enabled', 'db_plan_enabled', 'db_schemas']

async function resetAll(): Promise<void> {
  const { rows } = await sql<{ db: string }>('select current_database() as db')
  const db = rows[0]?.db as string
  for (const name of SETTINGS) {
    await sql(`alter role authenticator reset pgrst.${name}`)
    await sql(`alter role authenticator in database "${db}" reset pgrst.${name}`)
  }
  await sql("notify pgrst, 'reload config'")
}

afterAll(resetAll)

/** Rows a read of the three-row fixture table returns (max-rows caps it). */
async function rowsRead(): Promise<number> {
  const response = await raw(`/${t('kinds')}?select=id`)
  expect(response.status).toBe(200)
  return ((await response.json()) as unknown[]).length
}

/** Waits until the gateway's answer reflects a reload (notifications are asynchronous). */
async function eventually(read: () => Promise<number>, expected: number): Promise<void> {
  let last = -1
  for (let i = 0; i < 100; i++) {
    last = await read()
    if (last === expected) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  expect(last).toBe(expected)
}

describe('pgrst.* role settings', () => {
  it('reads ALTER ROLE authenticator SET pgrst.db_max_rows on NOTIFY pgrst, reload config', async () => {
    await resetAll()
    await eventually(rowsRead, 3)
    await sql("alter role authenticator set pgrst.db_max_rows = '2'")
    await sql("notify pgrst, 'reload config'")
    await eventually(rowsRead, 2)
    const response = await raw(`/${t('kinds')}?select=id&order=id`)
    expect(response.headers.get('content-range')).toBe('0-1/*')
    expect(await response.json()).toEqual([{ id: 1 }, { id: 2 }])
  })

  it('lets a role setting in this database win over the role-wide one', async () => {
    const { rows } = await sql<{ db: string }>('select current_database() as db')
    await sql("alter role authenticator set pgrst.db_max_rows = '2'")
    await sql(`alter role authenticator in database "${rows[0]?.db}" set pgrst.db_max_rows = '1'`)
    await sql("notify pgrst, 'reload config'")
    await eventually(rowsRead, 1)
  })

  it('re-reads the settings on an empty payload and on reload schema, but not on other payloads', async () => {
    await resetAll()
    await eventually(rowsRead, 3)
    await sql("alter role authenticator set pgrst.db_max_rows = '2'")
    await sql("notify pgrst, 'something else'")
    // An unknown payload is ignored; the settings apply only once a reload is asked for.
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(await rowsRead()).toBe(3)
    await sql('notify pgrst')
    await eventually(rowsRead, 2)
    await sql("alter role authenticator set pgrst.db_max_rows = '1'")
    await sql("notify pgrst, 'reload schema'")
    await eventually(rowsRead, 1)
  })

  it('exposes the schemas of pgrst.db_schemas after reload config, reloading the schema cache for them', async () => {
    await resetAll()
    await sql('grant usage on schema gw_cfg_private to anon; grant select on gw_cfg_private.secrets to anon')
    const before = await raw('/secrets?select=id', { headers: { 'Accept-Profile': 'gw_cfg_private' } })
    expect(before.status).toBe(406)
    expect(await before.json()).toEqual({
      code: 'PGRST106',
      details: null,
      hint: 'Only the following schemas are exposed: public',
      message: 'Invalid schema: gw_cfg_private',
    })
    await sql("alter role authenticator set pgrst.db_schemas = 'public, gw_cfg_private'")
    await sql("notify pgrst, 'reload config'")
    const secrets = async () =>
      (await raw('/secrets?select=id', { headers: { 'Accept-Profile': 'gw_cfg_private' } })).status
    await eventually(secrets, 200)
    await resetAll()
    await eventually(secrets, 406)
  })
})
