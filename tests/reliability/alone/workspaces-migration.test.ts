// The workspaces data migration loses and duplicates nothing: a database built from the migrations
// before 20261129082031_workspaces.sql, with the demo seed and a second customer who has rows in every
// tenant table, then the workspaces migration and every later one. Each customer must own exactly
// one personal workspace (id = their user id), active, and every tenant table must hold, per
// workspace, exactly the rows (same primary keys) it held per customer before. Alone: its cluster
// takes the port every instance other than dev and test shares (as pgboss-upgrade's does).
import { readFileSync } from 'node:fs'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stackConfig } from '../../../stack/src/config.ts'
import {
  destroyCluster,
  initCluster,
  migrate,
  startDb,
  withDb,
  withProjectDb,
} from '../../../stack/src/db.ts'

const WORKSPACES = '20261129082031'
const SECOND_CUSTOMER = 'c2000000-0000-4000-8000-000000000002'
const DEMO_CUSTOMER = 'd0000000-0000-4000-8000-000000000001'
/** The tenant tables the design names (docs/database.md); a table added to them later is found too. */
const NAMED_TENANT_TABLES = [
  'internal.instagram_oauth_states',
  'public.ai_usage',
  'public.campaign_daily_stats',
  'public.campaign_leads',
  'public.campaigns',
  'public.contact_ledger',
  'public.dm_logs',
  'public.do_not_contact',
  'public.inbox_check_requests',
  'public.inbox_messages',
  'public.inbox_threads',
  'public.instagram_automation_followups',
  'public.instagram_automation_runs',
  'public.instagram_automations',
  'public.lead_list_members',
  'public.lead_lists',
  'public.message_variants',
  'public.notifications',
  'public.opt_out_settings',
  'public.payments',
  'public.scraping_campaign_leads',
  'public.scraping_campaigns',
  'public.social_accounts',
  'public.subscriptions',
  'public.x_api_usage',
  'public.x_oauth_requests',
]

const config = stackConfig('workspacesmigration')

/** Per table, per owner (user_id before, workspace_id after): the sorted primary keys of its rows. */
type Snapshot = Record<string, Record<string, string[]>>

let customers: string[]
let before: Snapshot
let after: Snapshot
let tenantTables: string[]

/** Tables in public and internal that have `column` (and a primary key), as schema.name. */
async function tablesWith(client: pg.Client, column: string): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `select n.nspname || '.' || c.relname as name
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attname = $1 and not a.attisdropped
      where n.nspname in ('public', 'internal') and c.relkind in ('r', 'p')
        and exists (select 1 from pg_constraint p where p.conrelid = c.oid and p.contype = 'p')
      order by 1`,
    [column],
  )
  return rows.map((row) => row.name)
}

/**
 * A table's primary key columns as the first snapshot found them. The later snapshot names a row by
 * the same columns, so a key that later grew (ai_usage's now leads with the workspace) still names
 * the same row.
 */
const keyColumnsOf = new Map<string, string[]>()

async function keyColumns(client: pg.Client, table: string): Promise<string[]> {
  const known = keyColumnsOf.get(table)
  if (known) return known
  const { rows } = await client.query<{ name: string }>(
    `select a.attname as name
       from pg_constraint p cross join lateral unnest(p.conkey) with ordinality k(attnum, ord)
       join pg_attribute a on a.attrelid = p.conrelid and a.attnum = k.attnum
      where p.conrelid = $1::regclass and p.contype = 'p' order by k.ord`,
    [table],
  )
  const names = rows.map((row) => row.name)
  keyColumnsOf.set(table, names)
  return names
}

/** Every row's primary key per owner column value, read as the database owner (no RLS). */
async function snapshot(client: pg.Client, tables: string[], owner: string): Promise<Snapshot> {
  const out: Snapshot = {}
  for (const table of tables) {
    const key = (await keyColumns(client, table)).map((c) => `t.${client.escapeIdentifier(c)}`).join(', ')
    const [schema, name] = table.split('.') as [string, string]
    const { rows } = await client.query<{ owner: string | null; key: string }>(
      `select t.${client.escapeIdentifier(owner)}::text as owner, jsonb_build_array(${key})::text as key
         from ${client.escapeIdentifier(schema)}.${client.escapeIdentifier(name)} t`,
    )
    const perOwner: Record<string, string[]> = {}
    for (const row of rows) {
      const owner = row.owner ?? 'null'
      perOwner[owner] = [...(perOwner[owner] ?? []), row.key]
    }
    for (const keys of Object.values(perOwner)) keys.sort()
    out[table] = perOwner
  }
  return out
}

const counts = (shot: Snapshot) =>
  Object.fromEntries(
    Object.entries(shot).map(([table, perOwner]) => [
      table,
      Object.fromEntries(Object.entries(perOwner).map(([owner, keys]) => [owner, keys.length])),
    ]),
  )

beforeAll(async () => {
  destroyCluster(config)
  initCluster(config)
  await startDb(config)
  // The database as production holds it before workspaces, with the demo seed `npm start` loads.
  await migrate(config, () => {}, { seed: true, before: WORKSPACES })
  await withDb(config, async (admin) => {
    await admin.query(readFileSync(new URL('./workspaces-migration-customer.sql', import.meta.url), 'utf8'))
  })
  await withProjectDb(config, async (client) => {
    customers = (
      await client.query<{ id: string }>('select id::text from public.user_profiles order by id')
    ).rows.map((row) => row.id)
    before = await snapshot(client, await tablesWith(client, 'user_id'), 'user_id')
  })
  await migrate(config, () => {}, { seed: false })
  await withProjectDb(config, async (client) => {
    const withWorkspace = new Set(await tablesWith(client, 'workspace_id'))
    // Tables the migrations created (workspace_members) have nothing to carry over.
    tenantTables = Object.keys(before).filter((table) => withWorkspace.has(table))
    after = await snapshot(client, tenantTables, 'workspace_id')
  })
}, 300_000)

afterAll(() => destroyCluster(config))

describe('the workspaces data migration', () => {
  it('starts from data in every tenant table, the second customer in each', () => {
    expect(customers).toEqual(expect.arrayContaining([DEMO_CUSTOMER, SECOND_CUSTOMER]))
    expect(tenantTables).toEqual(expect.arrayContaining(NAMED_TENANT_TABLES))
    const without = tenantTables.filter((table) => (before[table]?.[SECOND_CUSTOMER] ?? []).length === 0)
    expect(without, 'give the second customer a row in these (workspaces-migration-customer.sql)').toEqual([])
  })

  it('gives each customer exactly one personal workspace, with their user id, owned and active', async () => {
    await withProjectDb(config, async (client) => {
      const { rows } = await client.query<{
        id: string
        personal: number
        memberships: { workspace: string; role: string }[]
        active: string | null
      }>(
        `select p.id::text,
                (select count(*)::int from public.workspaces w where w.id = p.id and w.created_by = p.id) as personal,
                (select json_agg(json_build_object('workspace', m.workspace_id, 'role', m.role))
                   from public.workspace_members m where m.user_id = p.id) as memberships,
                p.active_workspace_id::text as active
           from public.user_profiles p order by p.id`,
      )
      expect(rows.map((row) => row.id)).toEqual(customers)
      for (const row of rows)
        expect(row, row.id).toEqual({
          id: row.id,
          personal: 1,
          memberships: [{ workspace: row.id, role: 'owner' }],
          active: row.id,
        })
      const total = await client.query<{ n: number }>('select count(*)::int as n from public.workspaces')
      expect(total.rows[0]?.n).toBe(customers.length)
    })
  })

  it('keeps every row of every tenant table, in its customer’s workspace, none lost, none doubled', () => {
    // Counts first (a readable difference), then the rows themselves by primary key.
    const carried = Object.fromEntries(tenantTables.map((table) => [table, before[table] ?? {}]))
    expect(counts(after)).toEqual(counts(carried))
    expect(after).toEqual(carried)
    for (const table of tenantTables) expect(Object.keys(after[table] ?? {}), table).not.toContain('null')
  })
})
