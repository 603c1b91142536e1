// POST (insert, upsert), PATCH, DELETE and PUT on a table: one data-modifying CTE plus the SELECT that
// returns what `Prefer: return=…` and `select=` ask for, in one transaction.
import type { RestRequest } from './context.ts'
import { columnNotFound, invalidBody, RestError, singularity } from './errors.ts'
import { sendPlan } from './explain.ts'
import { requestedRange } from './negotiate.ts'
import { parseQuery, type QueryParts } from './parse/query.ts'
import type { OrderTerm } from './parse/types.ts'
import { AliasCounter, attachCondition, buildReadTree, type ReadNode } from './plan.ts'
import { attachEmbedded, findRelation } from './read.ts'
import { type BodyRow, bodyRow, firstElement, formatBody, gucOverrides, send } from './respond.ts'
import type { Column, Relation } from './schema-cache.ts'
import { Params, qualifiedIdent } from './sql/fragments.ts'
import {
  deleteCte,
  INSERTED_COLUMN,
  insertCte,
  type Returning,
  TARGET_ALIAS,
  updateCte,
} from './sql/mutate.ts'
import { bodyStatement } from './sql/statements.ts'

async function readPayload(ctx: RestRequest): Promise<{ raw: string; value: unknown }> {
  const raw = (await ctx.request.body()).toString('utf8')
  const type = String(ctx.request.req.headers['content-type'] ?? 'application/json').toLowerCase()
  if (!type.startsWith('application/json') && !type.startsWith('*/*'))
    throw new RestError(415, 'PGRST107', `Content-Type not acceptable: ${type}`)
  if (raw.trim() === '') throw invalidBody('Empty or invalid json')
  try {
    return { raw, value: JSON.parse(raw) }
  } catch {
    throw invalidBody('Empty or invalid json')
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The columns written: `columns=` when given, else the payload's keys (all rows must agree). */
function payloadColumns(relation: Relation, parts: QueryParts, rows: Record<string, unknown>[]): Column[] {
  let names: string[]
  if (parts.columns) {
    names = parts.columns
  } else {
    names = Object.keys(rows[0] ?? {})
    const key = [...names].sort().join('\u0000')
    for (const row of rows) {
      if (Object.keys(row).sort().join('\u0000') !== key) throw invalidBody('All object keys must match')
    }
  }
  return [...new Set(names)].map((name) => {
    const column = relation.columns.get(name)
    if (!column) throw columnNotFound(relation.name, name)
    return column
  })
}

function targetNode(relation: Relation): ReadNode {
  return {
    name: relation.name,
    alias: TARGET_ALIAS,
    from: qualifiedIdent(relation.schema, relation.name),
    columns: relation.columns,
    relation,
    star: false,
    fields: [],
    aggregated: false,
    embeds: [],
    conditions: [],
    order: [],
    offset: 0,
  }
}

function returningFor(ctx: RestRequest, relation: Relation): Returning {
  const mode = ctx.prefs.return ?? 'minimal'
  if (mode === 'representation') return { kind: 'all' }
  if (mode === 'headers-only') return { kind: 'columns', columns: relation.primaryKey }
  return { kind: 'none' }
}

function limitedRange(
  ctx: RestRequest,
  parts: QueryParts,
): { order: OrderTerm[]; limit?: number; offset: number } | undefined {
  const range = parts.ranges.get('')
  if (!range || (range.limit === undefined && !range.offset)) return undefined
  const order = parts.order.find((o) => o.path.length === 0)?.terms ?? []
  if (order.length === 0)
    throw new RestError(
      400,
      'PGRST109',
      "A 'limit' was applied without an explicit 'order'",
      null,
      "Apply an 'order' using unique column(s)",
    )
  const { offset, limit } = requestedRange(range, undefined, undefined)
  void ctx
  return { order, offset, ...(limit !== undefined && { limit }) }
}

function pkFilterValues(relation: Relation, parts: QueryParts): Map<string, string> {
  const values = new Map<string, string>()
  for (const { path, tree } of parts.conditions) {
    if (path.length > 0) continue
    if (
      tree.kind !== 'filter' ||
      tree.filter.expr.negated ||
      tree.filter.expr.operation.op !== 'eq' ||
      tree.filter.field.path.length > 0
    )
      throw new RestError(
        405,
        'PGRST105',
        "Filters must include all and only primary key columns with 'eq' operators",
      )
    const operation = tree.filter.expr.operation
    values.set(tree.filter.field.name, 'value' in operation ? String(operation.value) : '')
  }
  const pk = relation.primaryKey
  if (pk.length === 0 || values.size !== pk.length || !pk.every((col) => values.has(col)))
    throw new RestError(
      405,
      'PGRST105',
      "Filters must include all and only primary key columns with 'eq' operators",
    )
  return values
}

export async function writeTable(ctx: RestRequest, name: string): Promise<void> {
  const relation = findRelation(ctx, name)
  const { request, service, prefs } = ctx
  const method = request.method
  const parts = parseQuery(request.url.searchParams)
  const params = new Params()
  const returning = returningFor(ctx, relation)
  const target = targetNode(relation)
  for (const { path, tree } of parts.conditions)
    if (path.length === 0 && method !== 'POST') attachCondition(target, tree)

  let cte: string
  if (method === 'POST' || method === 'PUT') {
    const { raw, value } = await readPayload(ctx)
    const rows = Array.isArray(value) ? value : [value]
    if (!rows.every(isObject)) throw invalidBody('All object keys must match')
    const columns = payloadColumns(relation, parts, rows)
    let conflict: { columns: string[]; action: 'merge' | 'ignore' } | undefined
    if (method === 'PUT') {
      if (parts.ranges.get(''))
        throw new RestError(400, 'PGRST114', 'limit/offset querystring parameters are not allowed for PUT')
      const pkValues = pkFilterValues(relation, parts)
      if (
        rows.length !== 1 ||
        [...pkValues].some(([col, v]) => String((rows[0] as Record<string, unknown>)[col]) !== v)
      )
        throw new RestError(400, 'PGRST115', 'Payload values do not match URL in primary key column(s)')
      conflict = { columns: relation.primaryKey, action: 'merge' }
    } else if (prefs.resolution) {
      const onConflict = parts.onConflict ?? relation.primaryKey
      for (const col of onConflict) if (!relation.columns.has(col)) throw columnNotFound(relation.name, col)
      conflict = { columns: onConflict, action: prefs.resolution === 'merge-duplicates' ? 'merge' : 'ignore' }
    }
    cte = insertCte(
      {
        relation,
        columns,
        payload: Array.isArray(value) ? raw : `[${raw}]`,
        missingDefault: prefs.missingDefault,
        returning,
        ...(conflict && { conflict }),
        countInserted: method === 'POST',
      },
      params,
    )
  } else if (method === 'PATCH') {
    const { raw, value } = await readPayload(ctx)
    if (!isObject(value)) throw invalidBody('Empty or invalid json')
    const columns = payloadColumns(relation, parts, [value])
    const limited = limitedRange(ctx, parts)
    cte = updateCte(
      {
        target,
        relation,
        columns,
        payload: raw,
        missingDefault: prefs.missingDefault,
        returning,
        ...(limited && { limited }),
      },
      params,
    )
  } else {
    cte = deleteCte(target, relation, limitedRange(ctx, parts), returning, params)
  }

  // What the response shows: the rows as `select=` shapes them (embeds too), read from the CTE.
  const counter = new AliasCounter()
  const representation = returning.kind === 'all'
  const root = buildReadTree(
    ctx.cache,
    {
      name: relation.name,
      alias: counter.next('_gw'),
      from: 'pgrst_source',
      columns: relation.columns,
      relation,
    },
    representation ? parts.select : [{ kind: 'star' }],
    counter,
  )
  if (representation) attachEmbedded(root, parts, ctx.cache.config.maxRows, false)
  const statement = bodyStatement(
    root,
    {
      with: cte,
      ...(cte.startsWith('pgrst_mutation') && { extraColumns: INSERTED_COLUMN }),
      count: undefined,
      maxRows: ctx.cache.config.maxRows,
      noBody: returning.kind === 'none',
      stripNulls: ctx.accept.stripNulls,
      csv: ctx.accept.type === 'csv',
      ...(ctx.accept.type === 'geojson' &&
        ctx.cache.geoJsonFunction && { geoJson: ctx.cache.geoJsonFunction }),
    },
    params,
  )

  if (ctx.accept.plan) return sendPlan(ctx, statement, false)
  const needsCheck = ctx.accept.type === 'object' || (prefs.strict && prefs.maxAffected !== undefined)
  const end = needsCheck ? 'decide' : prefs.tx === 'rollback' ? 'rollback' : 'commit'
  const tx = await service.executor.transaction(ctx.settings, [statement], { readOnly: false, end })
  const row = bodyRow(tx.results[0])
  if (needsCheck) {
    let failure: RestError | undefined
    if (ctx.accept.type === 'object' && row.n !== 1) failure = singularity(row.n)
    else if (
      prefs.strict &&
      prefs.maxAffected !== undefined &&
      row.n > prefs.maxAffected &&
      method !== 'POST'
    )
      failure = new RestError(
        400,
        'PGRST124',
        'Query result exceeds max-affected preference constraint',
        `The query affects ${row.n} rows`,
      )
    await tx.finish(!failure && prefs.tx !== 'rollback')
    if (failure) throw failure
  }
  respondWrite(ctx, relation, row, returning)
}

function respondWrite(ctx: RestRequest, relation: Relation, row: BodyRow, returning: Returning): void {
  const { request, prefs } = ctx
  const method = request.method
  const overrides = gucOverrides(row)
  const total = prefs.count ? String(row.n) : '*'
  const range =
    method === 'POST' || method === 'PUT' || row.n === 0 ? `*/${total}` : `0-${row.n - 1}/${total}`
  const headers: Record<string, string> = { 'Content-Range': range, ...overrides.headers }
  if (prefs.applied.length > 0) headers['Preference-Applied'] = prefs.applied.join(', ')
  if (returning.kind === 'columns' && relation.primaryKey.length > 0 && row.n === 1 && row.body) {
    const keys = JSON.parse(firstElement(row.body)) as Record<string, unknown>
    const query = relation.primaryKey
      .map((col) => `${encodeURIComponent(col)}=eq.${encodeURIComponent(String(keys[col]))}`)
      .join('&')
    headers.Location = `/${encodeURIComponent(relation.name)}?${query}`
  }
  // An upsert (merge-duplicates) that only updated existing rows answers 200, as PostgREST does.
  const created = method === 'POST' && row.inserted !== 0 ? 201 : 200
  if (returning.kind !== 'all') {
    const empty = method === 'POST' ? created : 204
    send(request.res, overrides.status ?? empty, headers, undefined)
    return
  }
  const { contentType, payload } = formatBody(ctx.accept, row)
  headers['Content-Type'] = contentType
  send(request.res, overrides.status ?? created, headers, payload)
}
