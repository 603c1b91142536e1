// Relationships between exposed relations, as PostgREST derives them from foreign keys: the FK holder
// is many-to-one to the referenced table (one-to-one when the FK columns are also unique), the reverse
// is one-to-many, a junction table whose primary key covers two FKs gives many-to-many, and views
// inherit the FKs of the table columns they expose.
import type { ConstraintRow } from './catalog.ts'
import { RestError } from './errors.ts'
import { closest } from './fuzzy.ts'
import type { Relation } from './relation.ts'

export type Cardinality = 'm2o' | 'o2m' | 'o2o' | 'm2m'

export interface Junction {
  relation: Relation
  constraint1: string
  constraint2: string
  /** (junction column, origin column) */
  sourceColumns: [string, string][]
  /** (junction column, target column) */
  targetColumns: [string, string][]
}

export interface Relationship {
  table: Relation
  foreignTable: Relation
  isSelf: boolean
  cardinality: Cardinality
  constraint: string
  /** (origin column, target column); empty for many-to-many and computed relationships. */
  columns: [string, string][]
  junction?: Junction
  /** A computed relationship: the function that returns the related rows for a row. */
  computed?: { schema: string; name: string }
}

export const isToOne = (rel: Relationship) => rel.cardinality === 'm2o' || rel.cardinality === 'o2o'

type ViewOrigins = Map<number, { column: string; table: number; tableColumn: string }[]>

interface Endpoint {
  relation: Relation
  columns: string[]
}

/** The table itself (when exposed) and every exposed view that exposes all of `columns` of it. */
function endpoints(
  tableOid: number,
  columns: string[],
  relationsByOid: Map<number, Relation>,
  viewOrigins: ViewOrigins,
  exposed: Set<string>,
): Endpoint[] {
  const found: Endpoint[] = []
  const table = relationsByOid.get(tableOid)
  if (table && exposed.has(table.schema) && table.kind !== 'c') found.push({ relation: table, columns })
  for (const [viewOid, origins] of viewOrigins) {
    const view = relationsByOid.get(viewOid)
    if (!view || !exposed.has(view.schema)) continue
    const mapped = columns.map((column) => {
      const direct = origins.find((o) => o.table === tableOid && o.tableColumn === column)
      if (direct) return direct.column
      // A view over a view over the table: follow one more level.
      for (const origin of origins) {
        const inner = viewOrigins.get(origin.table)
        if (
          inner?.some(
            (o) => o.table === tableOid && o.tableColumn === column && o.column === origin.tableColumn,
          )
        )
          return origin.column
      }
      return undefined
    })
    if (mapped.every((column): column is string => column !== undefined))
      found.push({ relation: view, columns: mapped })
  }
  return found
}

export function buildRelationships(
  constraints: ConstraintRow[],
  relationsByOid: Map<number, Relation>,
  viewOrigins: ViewOrigins,
  exposed: Set<string>,
): Map<string, Relationship[]> {
  const uniques = new Map<number, string[][]>()
  for (const c of constraints) {
    if (c.type === 'p' || c.type === 'u')
      uniques.set(c.relid, [...(uniques.get(c.relid) ?? []), [...c.cols].sort()])
  }
  const all: Relationship[] = []
  for (const fk of constraints) {
    if (fk.type !== 'f') continue
    const sorted = [...fk.cols].sort().join('\u0000')
    const oneToOne = (uniques.get(fk.relid) ?? []).some((cols) => cols.join('\u0000') === sorted)
    const holders = endpoints(fk.relid, fk.cols, relationsByOid, viewOrigins, exposed)
    const referenced = endpoints(fk.frelid, fk.fcols, relationsByOid, viewOrigins, exposed)
    for (const from of holders) {
      for (const to of referenced) {
        const columns = from.columns.map((col, i) => [col, to.columns[i]] as [string, string])
        const isSelf = from.relation === to.relation
        all.push({
          table: from.relation,
          foreignTable: to.relation,
          isSelf,
          cardinality: oneToOne ? 'o2o' : 'm2o',
          constraint: fk.name,
          columns,
        })
        all.push({
          table: to.relation,
          foreignTable: from.relation,
          isSelf,
          cardinality: oneToOne ? 'o2o' : 'o2m',
          constraint: fk.name,
          columns: columns.map(([a, b]) => [b, a]),
        })
      }
    }
  }
  all.push(...manyToMany(all))
  const byOrigin = new Map<string, Relationship[]>()
  for (const rel of all) {
    const key = `${rel.table.schema}.${rel.table.name}`
    byOrigin.set(key, [...(byOrigin.get(key) ?? []), rel])
  }
  return byOrigin
}

function manyToMany(rels: Relationship[]): Relationship[] {
  const found: Relationship[] = []
  const manyToOne = rels.filter((rel) => rel.cardinality === 'm2o' && !rel.table.isView)
  for (const first of manyToOne) {
    for (const second of manyToOne) {
      if (first.table !== second.table || first.constraint === second.constraint) continue
      const junction = first.table
      const keyColumns = new Set(junction.primaryKey)
      const used = [...first.columns, ...second.columns].map(([col]) => col)
      if (keyColumns.size === 0 || !used.every((col) => keyColumns.has(col))) continue
      found.push({
        table: first.foreignTable,
        foreignTable: second.foreignTable,
        isSelf: first.foreignTable === second.foreignTable,
        cardinality: 'm2m',
        constraint: junction.name,
        columns: [],
        junction: {
          relation: junction,
          constraint1: first.constraint,
          constraint2: second.constraint,
          sourceColumns: first.columns,
          targetColumns: second.columns,
        },
      })
    }
  }
  return found
}

function singleColumn(rel: Relationship, side: 0 | 1): string | undefined {
  return rel.cardinality !== 'm2m' && rel.columns.length === 1 ? rel.columns[0]?.[side] : undefined
}

/** PostgREST's findRel: target by table/view name, FK name or FK column, narrowed by `!hint`. */
export function findRelationship(
  all: Map<string, Relationship[]>,
  origin: Relation,
  target: string,
  hint: string | undefined,
): Relationship {
  const candidates = all.get(`${origin.schema}.${origin.name}`) ?? []
  const matches = candidates.filter((rel) => {
    // PostgREST's findRel: a computed relationship matches its function's name, whatever the hint.
    if (rel.computed) return target === rel.computed.name
    const targetName = rel.foreignTable.name
    if (rel.isSelf) {
      if (hint === undefined)
        return (
          (target === targetName && rel.cardinality === 'o2m') ||
          (rel.cardinality === 'm2o' && singleColumn(rel, 0) === target)
        )
      return target === targetName && rel.cardinality === 'o2m' && singleColumn(rel, 1) === hint
    }
    if (hint === undefined) {
      return (
        target === targetName ||
        (rel.cardinality !== 'm2m' && rel.constraint === target && !rel.foreignTable.isView) ||
        (singleColumn(rel, 0) === target && !rel.foreignTable.isView)
      )
    }
    return (
      target === targetName &&
      ((rel.cardinality !== 'm2m' && rel.constraint === hint) ||
        singleColumn(rel, 0) === hint ||
        singleColumn(rel, 1) === hint ||
        (rel.cardinality === 'm2m' && rel.junction?.relation.name === hint))
    )
  })
  if (matches.length === 1) return matches[0] as Relationship
  if (matches.length === 0) throw noRelationship(all, origin, target, hint)
  throw ambiguous(origin.name, target, matches)
}

function noRelationship(
  all: Map<string, Relationship[]>,
  origin: Relation,
  target: string,
  hint: string | undefined,
): RestError {
  const parent = origin.name
  const children = (all.get(`${origin.schema}.${origin.name}`) ?? []).map((rel) => rel.foreignTable.name)
  const suggestion = children.includes(target) ? undefined : closest(target, children)
  return new RestError(
    400,
    'PGRST200',
    `Could not find a relationship between '${parent}' and '${target}' in the schema cache`,
    `Searched for a foreign key relationship between '${parent}' and '${target}'${hint === undefined ? '' : ` using the hint '${hint}'`} in the schema '${origin.schema}', but no matches were found.`,
    suggestion ? `Perhaps you meant '${suggestion}' instead of '${target}'.` : null,
  )
}

function ambiguous(parent: string, target: string, rels: Relationship[]): RestError {
  const cols = (names: string[]) => `(${names.join(', ')})`
  const details = rels.map((rel) => {
    const embedding = `${rel.table.name} with ${rel.foreignTable.name}`
    if (rel.cardinality === 'm2m' && rel.junction) {
      const j = rel.junction
      return {
        cardinality: 'many-to-many',
        embedding,
        relationship: `${j.relation.name} using ${j.constraint1}${cols(j.sourceColumns.map(([c]) => c))} and ${j.constraint2}${cols(j.targetColumns.map(([c]) => c))}`,
      }
    }
    const names = { m2o: 'many-to-one', o2m: 'one-to-many', o2o: 'one-to-one', m2m: 'many-to-many' }
    return {
      cardinality: names[rel.cardinality],
      embedding,
      relationship: `${rel.constraint} using ${rel.table.name}${cols(rel.columns.map(([c]) => c))} and ${rel.foreignTable.name}${cols(rel.columns.map(([, c]) => c))}`,
    }
  })
  const hints = rels.map(
    (rel) =>
      `'${rel.foreignTable.name}!${rel.cardinality === 'm2m' ? rel.junction?.relation.name : rel.constraint}'`,
  )
  return new RestError(
    300,
    'PGRST201',
    `Could not embed because more than one relationship was found for '${parent}' and '${target}'`,
    details,
    `Try changing '${target}' to one of the following: ${hints.join(', ')}. Find the desired relationship in the 'details' key.`,
  )
}
