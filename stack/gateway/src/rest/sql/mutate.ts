// The data-modifying CTE (`pgrst_source`) of a write; the body statement then reads its rows.
// The payload is one JSON bind parameter that json_to_recordset turns into typed rows.

import type { OrderTerm } from '../parse/types.ts'
import type { ReadNode } from '../plan.ts'
import type { Column, Relation } from '../schema-cache.ts'
import { conditionSql } from './conditions.ts'
import { catalogLiteral, columnExpr, ident, type Params, qualifiedIdent, rowCount } from './fragments.ts'

export const TARGET_ALIAS = '_gwm'

export type Returning = { kind: 'all' } | { kind: 'columns'; columns: string[] } | { kind: 'none' }

function returningSql(returning: Returning): string {
  if (returning.kind === 'all') return `RETURNING ${ident(TARGET_ALIAS)}.*`
  if (returning.kind === 'columns' && returning.columns.length > 0)
    return `RETURNING ${returning.columns.map((c) => `${ident(TARGET_ALIAS)}.${ident(c)}`).join(', ')}`
  return 'RETURNING 1'
}

function typedColumns(columns: Column[]): string {
  return columns.map((c) => `${ident(c.name)} ${c.type}`).join(', ')
}

/** Rows of the payload (a JSON array), with catalog defaults for absent keys when asked. */
function payloadRows(columns: Column[], payloadParam: string, missingDefault: boolean): string {
  const names = columns.map((c) => `_gwb.${ident(c.name)}`).join(', ')
  const withDefaults = columns.filter((c) => c.default !== null)
  if (missingDefault && withDefaults.length > 0) {
    const defaults = withDefaults.map((c) => `${catalogLiteral(c.name)}, ${c.default}`).join(', ')
    return `SELECT ${names} FROM jsonb_array_elements(${payloadParam}::jsonb) AS _gwe(j) CROSS JOIN LATERAL jsonb_to_record(jsonb_build_object(${defaults}) || _gwe.j) AS _gwb(${typedColumns(columns)})`
  }
  return `SELECT ${names} FROM json_to_recordset(${payloadParam}::json) AS _gwb(${typedColumns(columns)})`
}

export interface InsertSpec {
  relation: Relation
  columns: Column[]
  /** JSON array text. */
  payload: string
  missingDefault: boolean
  conflict?: { columns: string[]; action: 'merge' | 'ignore' }
  returning: Returning
  /** Also count the rows inserted (not updated), for the upsert's status. */
  countInserted?: boolean
}

export function insertCte(spec: InsertSpec, params: Params): string {
  const target = `${qualifiedIdent(spec.relation.schema, spec.relation.name)} AS ${ident(TARGET_ALIAS)}`
  const payload = params.add(spec.payload)
  let sql: string
  if (spec.columns.length === 0) {
    sql = `INSERT INTO ${target} SELECT FROM json_array_elements(${payload}::json)`
  } else {
    const names = spec.columns.map((c) => ident(c.name)).join(', ')
    sql = `INSERT INTO ${target} (${names}) ${payloadRows(spec.columns, payload, spec.missingDefault)}`
  }
  if (spec.conflict && spec.conflict.columns.length > 0) {
    const target = spec.conflict.columns.map(ident).join(', ')
    if (spec.conflict.action === 'ignore' || spec.columns.length === 0)
      sql += ` ON CONFLICT (${target}) DO NOTHING`
    else
      sql += ` ON CONFLICT (${target}) DO UPDATE SET ${spec.columns.map((c) => `${ident(c.name)} = EXCLUDED.${ident(c.name)}`).join(', ')}`
  }
  if (spec.conflict?.action === 'merge' && spec.countInserted) {
    // PostgREST answers an upsert that inserted nothing with 200 (Response.hs, isInsertIfGTZero),
    // so the rows the INSERT created (xmax = 0; updated ones carry the updating transaction's id)
    // are counted next to the rows themselves.
    return `pgrst_mutation AS (${sql} RETURNING ${ident(TARGET_ALIAS)} AS "r", (${ident(TARGET_ALIAS)}.xmax = 0) AS "i"), pgrst_source AS (SELECT ${sourceColumns(spec.returning)} FROM pgrst_mutation)`
  }
  return `pgrst_source AS (${sql} ${returningSql(spec.returning)})`
}

/** The columns `returningSql` would have returned, read back from the row in pgrst_mutation. */
function sourceColumns(returning: Returning): string {
  if (returning.kind === 'all') return '(pgrst_mutation."r").*'
  if (returning.kind === 'columns' && returning.columns.length > 0)
    return returning.columns.map((c) => `(pgrst_mutation."r").${ident(c)}`).join(', ')
  return '1'
}

/** The body statement's extra column with the number of rows an upsert inserted. */
export const INSERTED_COLUMN = '(SELECT count(*) FILTER (WHERE "i") FROM pgrst_mutation)::int AS inserted'

/** WHERE for UPDATE/DELETE; with a limit, only the first rows by the order (PostgREST 12's rule). */
function mutationWhere(
  target: ReadNode,
  limited: { order: OrderTerm[]; limit?: number; offset: number } | undefined,
  params: Params,
): string {
  const conditions = target.conditions.map((tree) => conditionSql(target, tree, params))
  if (limited) {
    const inner: ReadNode = { ...target, alias: '_gwk' }
    const innerConditions = inner.conditions.map((tree) => conditionSql(inner, tree, params))
    const keys = limited.order.map((term) => term.field)
    const outerKeys = keys.map((f) => columnExpr(TARGET_ALIAS, f, params)).join(', ')
    const innerKeys = keys.map((f) => columnExpr('_gwk', f, params)).join(', ')
    const order = limited.order
      .map(
        (term) =>
          `${columnExpr('_gwk', term.field, params)}${term.direction ? ` ${term.direction.toUpperCase()}` : ''}${term.nulls ? ` NULLS ${term.nulls.toUpperCase()}` : ''}`,
      )
      .join(', ')
    let sub = `SELECT ${innerKeys} FROM ${target.from} AS "_gwk"`
    if (innerConditions.length > 0) sub += ` WHERE ${innerConditions.join(' AND ')}`
    sub += ` ORDER BY ${order}`
    if (limited.limit !== undefined) sub += ` LIMIT ${rowCount(limited.limit, params)}`
    if (limited.offset > 0) sub += ` OFFSET ${rowCount(limited.offset, params)}`
    conditions.push(`ROW(${outerKeys}) IN (${sub})`)
  }
  return conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : ''
}

export interface UpdateSpec {
  target: ReadNode
  relation: Relation
  columns: Column[]
  /** JSON object text. */
  payload: string
  missingDefault: boolean
  limited?: { order: OrderTerm[]; limit?: number; offset: number }
  returning: Returning
}

export function updateCte(spec: UpdateSpec, params: Params): string {
  const table = qualifiedIdent(spec.relation.schema, spec.relation.name)
  if (spec.columns.length === 0) {
    return `pgrst_source AS (SELECT ${ident(TARGET_ALIAS)}.* FROM ${table} AS ${ident(TARGET_ALIAS)} WHERE false)`
  }
  const payload = params.add(`[${spec.payload}]`)
  const sets = spec.columns.map((c) => `${ident(c.name)} = _gwb.${ident(c.name)}`).join(', ')
  const rows = payloadRows(spec.columns, payload, spec.missingDefault)
  const where = mutationWhere(spec.target, spec.limited, params)
  return `pgrst_source AS (UPDATE ${table} AS ${ident(TARGET_ALIAS)} SET ${sets} FROM (${rows}) AS _gwb${where} ${returningSql(spec.returning)})`
}

export function deleteCte(
  target: ReadNode,
  relation: Relation,
  limited: UpdateSpec['limited'],
  returning: Returning,
  params: Params,
): string {
  const table = qualifiedIdent(relation.schema, relation.name)
  return `pgrst_source AS (DELETE FROM ${table} AS ${ident(TARGET_ALIAS)}${mutationWhere(target, limited, params)} ${returningSql(returning)})`
}
