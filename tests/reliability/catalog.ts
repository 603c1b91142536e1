// What the isolation probes are driven from: Postgres's own catalog, read at test time, so a table,
// view, RPC or bucket added by a later migration is probed without anyone editing this suite.
import { db } from '../../stack/gateway/test/helpers.ts'

export interface Relation {
  name: string
  /** r table, p partitioned table, v view, m materialized view, f foreign table */
  kind: string
  columns: { name: string; type: string }[]
  primaryKey: string[]
  /** Columns the `authenticated` role may UPDATE (column or table grant). */
  updatable: string[]
}

export interface ForeignKey {
  from: string
  to: string
  columns: string[]
}

export interface Rpc {
  name: string
  args: { name: string; type: string; hasDefault: boolean }[]
}

export async function relations(): Promise<Relation[]> {
  const { rows } = await db().query<{
    name: string
    kind: string
    columns: { name: string; type: string }[]
    primary_key: string[] | null
    updatable: string[] | null
  }>(
    `select c.relname as name, c.relkind::text as kind,
            (select json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod))
                             order by a.attnum)
               from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped) as columns,
            (select array_agg(a.attname::text order by k.ord)
               from pg_constraint pk
               cross join lateral unnest(pk.conkey) with ordinality k(attnum, ord)
               join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum
              where pk.conrelid = c.oid and pk.contype = 'p') as primary_key,
            (select array_agg(a.attname::text)
               from pg_attribute a
              where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
                and has_column_privilege('authenticated', c.oid, a.attnum, 'UPDATE')) as updatable
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'f')
      order by c.relname`,
  )
  return rows.map((row) => ({
    name: row.name,
    kind: row.kind,
    columns: row.columns,
    primaryKey: row.primary_key ?? [],
    updatable: row.updatable ?? [],
  }))
}

export async function foreignKeys(): Promise<ForeignKey[]> {
  const { rows } = await db().query<ForeignKey>(
    `select src.relname as "from", dst.relname as "to",
            array(select a.attname::text from unnest(con.conkey) k(attnum)
                  join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum) as columns
       from pg_constraint con
       join pg_class src on src.oid = con.conrelid join pg_namespace sn on sn.oid = src.relnamespace
       join pg_class dst on dst.oid = con.confrelid join pg_namespace dn on dn.oid = dst.relnamespace
      where con.contype = 'f' and sn.nspname = 'public' and dn.nspname = 'public'`,
  )
  return rows
}

/** Every function in `public` the signed-in role may execute: what `/rest/v1/rpc/*` exposes to customers. */
export async function customerRpcs(): Promise<Rpc[]> {
  const { rows } = await db().query<{
    name: string
    names: string[] | null
    types: string[]
    defaults: number
  }>(
    `select p.proname as name, p.proargnames as names,
            array(select format_type(t, null) from unnest(p.proargtypes) t) as types,
            p.pronargdefaults as defaults
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and p.prokind = 'f'
        and has_function_privilege('authenticated', p.oid, 'EXECUTE')
      order by p.proname`,
  )
  return rows.map((row) => ({
    name: row.name,
    args: row.types.map((type, i) => ({
      name: row.names?.[i] ?? `arg${i}`,
      type,
      hasDefault: i >= row.types.length - row.defaults,
    })),
  }))
}

export async function buckets(): Promise<{ id: string; public: boolean }[]> {
  const { rows } = await db().query<{ id: string; public: boolean }>(
    'select id, public from storage.buckets order by id',
  )
  return rows
}

/**
 * Every row of `relation` as JSON, for the ownership closure below. Tables are read as the database
 * owner, so row-level security hides nothing; views may filter on `auth.uid()` themselves
 * (security_invoker), so they are read as the user whose rows are wanted.
 */
export async function allRows(relation: Relation, asUser: string): Promise<Record<string, unknown>[]> {
  const select = `select to_jsonb(t) as row from public.${quoteIdent(relation.name)} t`
  if (relation.kind !== 'v' && relation.kind !== 'm') {
    const { rows } = await db().query<{ row: Record<string, unknown> }>(select)
    return rows.map((r) => r.row)
  }
  const client = await db().connect()
  try {
    await client.query('begin')
    await client.query(
      `select set_config('request.jwt.claims', $1, true), set_config('role', 'authenticated', true)`,
      [JSON.stringify({ sub: asUser, role: 'authenticated' })],
    )
    const { rows } = await client.query<{ row: Record<string, unknown> }>(select)
    return rows.map((r) => r.row)
  } finally {
    await client.query('rollback')
    client.release()
  }
}

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Every uuid that appears anywhere in a JSON value (nested objects and arrays included). */
export function uuidsIn(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    if (UUID.test(value)) into.add(value.toLowerCase())
  } else if (Array.isArray(value)) {
    for (const item of value) uuidsIn(item, into)
  } else if (value && typeof value === 'object') {
    for (const item of Object.values(value)) uuidsIn(item, into)
  }
  return into
}

export interface Ownership {
  /** Ids of the user and of every row that belongs to them, directly or through another of their rows. */
  ids: Set<string>
  /** Per relation, the rows that belong to the user. */
  rows: Map<string, Record<string, unknown>[]>
}

/**
 * The rows that belong to `userId`, found without knowing the schema: a row belongs to the user
 * when one of its uuid values is the user's id, the id of one of `workspaceIds` (the workspaces
 * whose rows are theirs) or the id of a row that already belongs to them (credentials via their
 * account, list members via their list…). Repeated until nothing new turns up.
 */
export async function ownership(
  userId: string,
  rels: Relation[],
  workspaceIds: string[] = [],
): Promise<Ownership> {
  const tables = await Promise.all(rels.map(async (rel) => [rel, await allRows(rel, userId)] as const))
  const ids = new Set([userId, ...workspaceIds].map((id) => id.toLowerCase()))
  const rows = new Map<string, Record<string, unknown>[]>()
  for (let round = 0; round < 6; round++) {
    const before = ids.size
    for (const [rel, all] of tables) {
      const owned = all.filter((row) => [...uuidsIn(row)].some((id) => ids.has(id)))
      rows.set(rel.name, owned)
      for (const row of owned) {
        const key = rel.primaryKey.length === 1 ? row[rel.primaryKey[0] ?? ''] : row.id
        if (typeof key === 'string' && UUID.test(key)) ids.add(key.toLowerCase())
      }
    }
    if (ids.size === before) break
  }
  return { ids, rows }
}
