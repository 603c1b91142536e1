// What the schema cache reads from pg_catalog: relations with their columns, keys and foreign keys,
// view definitions (to follow view columns back to table columns), functions and role settings.
import type pg from 'pg'

export interface ColumnRow {
  name: string
  type: string
  notNull: boolean
  default: string | null
  generated: boolean
}

export interface RelationRow {
  oid: number
  schema: string
  name: string
  kind: string
  columns: ColumnRow[]
}

export interface ConstraintRow {
  name: string
  type: 'p' | 'u' | 'f'
  relid: number
  frelid: number
  cols: string[]
  fcols: string[]
}

export interface ViewRow {
  oid: number
  definition: string
}

export interface AttributeRow {
  relid: number
  attnum: number
  name: string
}

export interface FunctionArgRow {
  name: string
  type: string
  mode: string
}

export interface FunctionRow {
  schema: string
  name: string
  volatility: 'v' | 's' | 'i'
  returnsSet: boolean
  returnType: string
  returnTypeKind: string
  returnRelid: number
  args: FunctionArgRow[]
  defaults: number
  description: string | null
}

/** A function of one argument of a relation's row type: a computed field or relationship. */
export interface RowFunctionRow {
  schema: string
  name: string
  argRelid: number
  returnType: string
  /** The relation whose rows it returns, 0 for anything else. */
  returnRelid: number
  returnsSet: boolean
  rows: number
}

export interface CatalogSnapshot {
  relations: RelationRow[]
  constraints: ConstraintRow[]
  views: ViewRow[]
  attributes: AttributeRow[]
  functions: FunctionRow[]
  rowFunctions: RowFunctionRow[]
  roleTimeouts: Record<string, string>
  typeNames: string[]
  /** PostGIS's ST_AsGeoJSON(record), schema-qualified, when PostGIS (3+) is installed; else null. */
  geoJsonFunction: string | null
}

// Identity columns get their sequence's nextval as default so `Prefer: missing=default` can use it.
const RELATIONS = `
select c.oid::int as oid, n.nspname as schema, c.relname as name, c.relkind as kind,
  coalesce(json_agg(json_build_object(
    'name', a.attname,
    'type', format_type(a.atttypid, a.atttypmod),
    'notNull', a.attnotnull,
    'default', case
      when a.attidentity <> '' then format('nextval(%L::regclass)',
        pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname))
      else pg_get_expr(d.adbin, d.adrelid) end,
    'generated', a.attgenerated <> ''
  ) order by a.attnum) filter (where a.attnum is not null), '[]') as columns
from pg_class c
join pg_namespace n on n.oid = c.relnamespace
left join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
left join pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
where c.relkind in ('r', 'v', 'm', 'f', 'p', 'c') and not c.relispartition
  and (n.nspname = any($1) or c.oid in (select typrelid from pg_type t join pg_proc p on p.prorettype = t.oid
    join pg_namespace pn on pn.oid = p.pronamespace where pn.nspname = any($1)))
group by c.oid, n.nspname, c.relname, c.relkind`

const CONSTRAINTS = `
select con.conname as name, con.contype as type, con.conrelid::int as relid, con.confrelid::int as frelid,
  array(select a.attname from unnest(con.conkey) with ordinality k(num, i)
        join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.num order by k.i)::text[] as cols,
  array(select a.attname from unnest(con.confkey) with ordinality k(num, i)
        join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.num order by k.i)::text[] as fcols
from pg_constraint con
where con.contype in ('p', 'u', 'f') and con.conparentid = 0
  and con.connamespace <> 'pg_catalog'::regnamespace`

const VIEWS = `
select c.oid::int as oid, r.ev_action::text as definition
from pg_class c
join pg_namespace n on n.oid = c.relnamespace
join pg_rewrite r on r.ev_class = c.oid and r.rulename = '_RETURN'
where c.relkind in ('v', 'm') and n.nspname = any($1)`

const ATTRIBUTES = `
select a.attrelid::int as relid, a.attnum::int as attnum, a.attname as name
from pg_attribute a
join pg_class c on c.oid = a.attrelid
where a.attnum > 0 and not a.attisdropped and c.relkind in ('r', 'v', 'm', 'f', 'p')
  and c.relnamespace not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)`

const FUNCTIONS = `
select n.nspname as schema, p.proname as name, p.provolatile as volatility, p.proretset as "returnsSet",
  format_type(p.prorettype, null) as "returnType", t.typtype as "returnTypeKind", t.typrelid::int as "returnRelid",
  p.pronargdefaults::int as defaults, obj_description(p.oid, 'pg_proc') as description,
  coalesce((
    select json_agg(json_build_object(
      'name', coalesce(p.proargnames[i], ''),
      'type', format_type(coalesce(p.proallargtypes[i], p.proargtypes[i - 1]), null),
      'mode', coalesce(p.proargmodes[i], 'i')) order by i)
    from generate_series(1, coalesce(array_length(p.proallargtypes, 1), p.pronargs)) i
  ), '[]') as args
from pg_proc p
join pg_namespace n on n.oid = p.pronamespace
join pg_type t on t.oid = p.prorettype
where p.prokind = 'f' and n.nspname = any($1) and t.typname <> 'trigger'`

// PostgREST's computed fields and allComputedRels (SchemaCache.hs): one argument whose type is the
// row type of a table, view, materialized view or foreign table.
const ROW_FUNCTIONS = `
select n.nspname as schema, p.proname as name, at.typrelid::int as "argRelid",
  format_type(p.prorettype, null) as "returnType",
  case when rc.relkind in ('r', 'v', 'm', 'f', 'p') then rc.oid::int else 0 end as "returnRelid",
  p.proretset as "returnsSet", p.prorows::float8 as rows
from pg_proc p
join pg_namespace n on n.oid = p.pronamespace
join pg_type at on at.oid = p.proargtypes[0]
join pg_class ac on ac.oid = at.typrelid and ac.relkind in ('r', 'v', 'm', 'f', 'p')
join pg_type rt on rt.oid = p.prorettype
left join pg_class rc on rc.oid = rt.typrelid
where p.pronargs = 1 and p.prokind = 'f' and n.nspname = any($1)`

// PostGIS 3's ST_AsGeoJSON(feature record, …): what PostgREST builds application/geo+json with.
const GEOJSON_FUNCTION = `
select quote_ident(n.nspname) || '.st_asgeojson' as name
from pg_proc p
join pg_namespace n on n.oid = p.pronamespace
where p.proname = 'st_asgeojson' and p.proargtypes[0] = 'record'::regtype
order by n.nspname
limit 1`

const ROLE_TIMEOUTS = `
select r.rolname as role, substr(s.setting, length('statement_timeout=') + 1) as value
from pg_db_role_setting d
join pg_roles r on r.oid = d.setrole
cross join lateral unnest(d.setconfig) as s(setting)
where d.setdatabase in (0, (select oid from pg_database where datname = current_database()))
  and r.rolname in ('anon', 'authenticated', 'service_role')
  and s.setting like 'statement\\_timeout=%'`

const TYPE_NAMES = `
select distinct t.typname as name
from pg_type t join pg_namespace n on n.oid = t.typnamespace
where t.typname !~ '^_' and (n.nspname in ('pg_catalog', 'extensions') or n.nspname = any($1))`

/** `searchSchemas`: where computed fields may live (the exposed schemas and the extra search path). */
export async function readCatalog(
  client: pg.ClientBase,
  schemas: readonly string[],
  searchSchemas: readonly string[] = schemas,
): Promise<CatalogSnapshot> {
  const list = [...schemas]
  const relations = await client.query<RelationRow>(RELATIONS, [list])
  const constraints = await client.query<ConstraintRow>(CONSTRAINTS)
  const views = await client.query<ViewRow>(VIEWS, [list])
  const attributes = await client.query<AttributeRow>(ATTRIBUTES)
  const functions = await client.query<FunctionRow>(FUNCTIONS, [list])
  const rowFunctions = await client.query<RowFunctionRow>(ROW_FUNCTIONS, [
    [...new Set([...list, ...searchSchemas])],
  ])
  const timeouts = await client.query<{ role: string; value: string }>(ROLE_TIMEOUTS)
  const typeNames = await client.query<{ name: string }>(TYPE_NAMES, [list])
  const geoJson = await client.query<{ name: string }>(GEOJSON_FUNCTION)
  return {
    relations: relations.rows,
    constraints: constraints.rows,
    views: views.rows,
    attributes: attributes.rows,
    functions: functions.rows,
    rowFunctions: rowFunctions.rows,
    roleTimeouts: Object.fromEntries(timeouts.rows.map((row) => [row.role, row.value])),
    typeNames: typeNames.rows.map((row) => row.name),
    geoJsonFunction: geoJson.rows[0]?.name ?? null,
  }
}
