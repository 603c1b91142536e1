// The schema cache: exposed relations with their columns and keys, the relationships between them
// (from foreign keys, also through simple views), and the callable functions.
import type { CatalogSnapshot, ColumnRow, FunctionRow, RowFunctionRow } from './catalog.ts'
import type { RestConfig } from './db-config.ts'
import type { Column, Relation } from './relation.ts'
import { buildRelationships, type Relationship } from './relationships.ts'
import { viewColumnOrigins } from './view-columns.ts'

export type { Column, Relation } from './relation.ts'

export interface RoutineParam {
  name: string
  type: string
  required: boolean
  variadic: boolean
}

export interface Routine {
  schema: string
  name: string
  /** COMMENT ON FUNCTION, which PostgREST orders overloads by after their parameter count. */
  description: string | null
  volatility: 'v' | 's' | 'i'
  params: RoutineParam[]
  returnsSet: boolean
  returnType: string
  /** void → 204; scalar → a JSON value; composite → rows (a table's, a composite type's or OUT params). */
  returnKind: 'void' | 'scalar' | 'composite'
  /** The table or view whose rows the function returns (embedding works from it). */
  returnRelation?: Relation
  returnColumns: Column[]
}

export interface SchemaCache {
  /** The configuration this cache was loaded with (environment plus `pgrst.*` role settings). */
  config: RestConfig
  schemas: readonly string[]
  relations: Map<string, Relation>
  relationsByOid: Map<number, Relation>
  relationships: Map<string, Relationship[]>
  routines: Map<string, Routine[]>
  roleTimeouts: Record<string, string>
  typeNames: Set<string>
  /** ST_AsGeoJSON when PostGIS is installed: `Accept: application/geo+json` is served only then. */
  geoJsonFunction: string | null
}

export const qualified = (schema: string, name: string) => `${schema}.${name}`

// SQL-standard spellings `::type` casts may use besides the catalog's type names.
const TYPE_ALIASES = [
  'int',
  'integer',
  'smallint',
  'bigint',
  'real',
  'double precision',
  'decimal',
  'boolean',
  'character',
  'character varying',
  'timestamp with time zone',
  'timestamp without time zone',
  'time with time zone',
  'time without time zone',
]

function toColumn(row: ColumnRow): Column {
  return { ...row, isTsvector: row.type === 'tsvector' }
}

export function buildSchemaCache(snapshot: CatalogSnapshot, config: RestConfig): SchemaCache {
  const schemas = config.schemas
  const relationsByOid = new Map<number, Relation>()
  const relations = new Map<string, Relation>()
  const exposed = new Set(schemas)
  for (const row of snapshot.relations) {
    const columnList = row.columns.map(toColumn)
    const relation: Relation = {
      oid: row.oid,
      schema: row.schema,
      name: row.name,
      kind: row.kind,
      isView: row.kind === 'v' || row.kind === 'm',
      columns: new Map(columnList.map((column) => [column.name, column])),
      columnList,
      primaryKey: [],
      computed: new Map(),
    }
    relationsByOid.set(row.oid, relation)
    if (exposed.has(row.schema) && row.kind !== 'c') relations.set(qualified(row.schema, row.name), relation)
  }
  for (const constraint of snapshot.constraints) {
    const relation = relationsByOid.get(constraint.relid)
    if (constraint.type === 'p' && relation) relation.primaryKey = constraint.cols
  }

  const attnames = new Map<string, string>()
  for (const attribute of snapshot.attributes)
    attnames.set(`${attribute.relid}:${attribute.attnum}`, attribute.name)
  const viewOrigins = new Map<number, { column: string; table: number; tableColumn: string }[]>()
  for (const view of snapshot.views) {
    viewOrigins.set(
      view.oid,
      viewColumnOrigins(view.definition).flatMap((origin) => {
        const tableColumn = attnames.get(`${origin.table}:${origin.attnum}`)
        return tableColumn ? [{ column: origin.column, table: origin.table, tableColumn }] : []
      }),
    )
  }

  const relationships = buildRelationships(snapshot.constraints, relationsByOid, viewOrigins, exposed)
  for (const fn of snapshot.rowFunctions) {
    const relation = relationsByOid.get(fn.argRelid)
    if (!relation) continue
    if (!relation.computed.has(fn.name))
      relation.computed.set(
        fn.name,
        toColumn({ name: fn.name, type: fn.returnType, notNull: false, default: null, generated: false }),
      )
    addComputedRelationship(relationships, fn, relation, relationsByOid.get(fn.returnRelid), exposed)
  }

  const routines = new Map<string, Routine[]>()
  for (const row of snapshot.functions) {
    const routine = toRoutine(row, relationsByOid)
    if (!isCallable(routine)) continue
    const key = qualified(row.schema, row.name)
    routines.set(key, [...(routines.get(key) ?? []), routine])
  }
  for (const overloads of routines.values()) overloads.sort(compareOverloads)

  return {
    config,
    schemas,
    relations,
    relationsByOid,
    relationships,
    routines,
    roleTimeouts: snapshot.roleTimeouts,
    typeNames: new Set([...snapshot.typeNames, ...TYPE_ALIASES]),
    geoJsonFunction: snapshot.geoJsonFunction,
  }
}

/**
 * PostgREST's computed relationships (SchemaCache.hs allComputedRels, getOverrideRelationshipsMap):
 * `f(tbl) returns setof other` is to-many, `returns other` or `rows 1` to-one; found by the
 * function's name, in the schema of the request; it replaces the foreign-key relationships from
 * `tbl` to the table of the same schema and name.
 */
function addComputedRelationship(
  relationships: Map<string, Relationship[]>,
  fn: RowFunctionRow,
  table: Relation,
  foreignTable: Relation | undefined,
  exposed: Set<string>,
): void {
  if (
    !foreignTable ||
    !exposed.has(fn.schema) ||
    !exposed.has(table.schema) ||
    !exposed.has(foreignTable.schema)
  )
    return
  const key = qualified(table.schema, table.name)
  const kept = (relationships.get(key) ?? []).filter(
    (rel) =>
      rel.computed !== undefined ||
      rel.foreignTable.schema !== fn.schema ||
      rel.foreignTable.name !== fn.name,
  )
  kept.push({
    table,
    foreignTable,
    isSelf: table === foreignTable,
    cardinality: !fn.returnsSet || fn.rows === 1 ? 'm2o' : 'o2m',
    constraint: fn.name,
    columns: [],
    computed: { schema: fn.schema, name: fn.name },
  })
  relationships.set(key, kept)
}

/** Types a single unnamed parameter may have: a whole JSON, text, XML or binary request body. */
const UNNAMED_PARAM_TYPES = new Set(['bytea', 'json', 'jsonb', 'text', 'xml'])

/**
 * PostgREST 14's schema cache (SchemaCache.hs, funcsSqlQuery `callable`) leaves out functions with
 * more than one unnamed parameter, or with one whose first parameter is not of a body type: they
 * cannot be called by name, so the Data API does not see them at all (PGRST202, or another
 * overload is chosen).
 */
function isCallable(routine: Routine): boolean {
  const unnamed = routine.params.filter((param) => param.name === '').length
  if (unnamed === 0) return true
  return unnamed === 1 && UNNAMED_PARAM_TYPES.has(routine.params[0]?.type ?? '')
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
const compareFlag = (a: boolean, b: boolean) => Number(a) - Number(b)

/**
 * PostgREST's order of one function's overloads (SchemaCache.hs decodeFuncs sorts them with
 * Routine's Ord instance), which PGRST203 lists its candidates in: fewer parameters first, then no
 * description before one, then the parameters field by field (name, type, required, variadic).
 * Two overloads always differ by then: Postgres refuses two with the same parameter types.
 */
export function compareOverloads(a: Routine, b: Routine): number {
  if (a.params.length !== b.params.length) return a.params.length - b.params.length
  if (a.description !== b.description) {
    if (a.description === null) return -1
    if (b.description === null) return 1
    return compareText(a.description, b.description)
  }
  for (const [i, p] of a.params.entries()) {
    const q = b.params[i] as RoutineParam
    const order =
      compareText(p.name, q.name) ||
      compareText(p.type, q.type) ||
      compareFlag(p.required, q.required) ||
      compareFlag(p.variadic, q.variadic)
    if (order !== 0) return order
  }
  return 0
}

function toRoutine(row: FunctionRow, relationsByOid: Map<number, Relation>): Routine {
  const inputs = row.args.filter((arg) => arg.mode === 'i' || arg.mode === 'b' || arg.mode === 'v')
  const outputs = row.args.filter((arg) => arg.mode === 'o' || arg.mode === 'b' || arg.mode === 't')
  const params = inputs.map((arg, index) => ({
    name: arg.name,
    type: arg.type,
    required: index < inputs.length - row.defaults,
    variadic: arg.mode === 'v',
  }))
  const relation = row.returnRelid ? relationsByOid.get(row.returnRelid) : undefined
  let returnKind: Routine['returnKind'] = 'scalar'
  let returnColumns: Column[] = []
  if (row.returnType === 'void') returnKind = 'void'
  else if (relation) {
    returnKind = 'composite'
    returnColumns = relation.columnList
  } else if (row.returnType === 'record' && outputs.length > 0) {
    returnKind = 'composite'
    returnColumns = outputs.map((arg) =>
      toColumn({ name: arg.name, type: arg.type, notNull: false, default: null, generated: false }),
    )
  }
  return {
    schema: row.schema,
    name: row.name,
    description: row.description,
    volatility: row.volatility,
    params,
    returnsSet: row.returnsSet,
    returnType: row.returnType,
    returnKind,
    ...(relation && relation.kind !== 'c' && { returnRelation: relation }),
    returnColumns,
  }
}
