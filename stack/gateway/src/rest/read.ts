// GET and HEAD on a table or view.
import type { RestRequest } from './context.ts'
import { RestError } from './errors.ts'
import { sendPlan } from './explain.ts'
import { contentRange, requestedRange } from './negotiate.ts'
import { parseQuery, type QueryParts } from './parse/query.ts'
import { AliasCounter, attachCondition, attachOrder, buildReadTree, nodeAt, type ReadNode } from './plan.ts'
import type { Preferences } from './prefer.ts'
import { type BodyRow, bodyRow, formatBody, gucOverrides, send } from './respond.ts'
import { qualified, type Relation, type SchemaCache } from './schema-cache.ts'
import { qualifiedIdent } from './sql/fragments.ts'
import { bodyStatement, plannedCountStatement, type Statement } from './sql/statements.ts'

export function findRelation(ctx: RestRequest, name: string): Relation {
  const relation = ctx.cache.relations.get(qualified(ctx.schema, name))
  if (relation) return relation
  const names = [...ctx.cache.relations.values()].filter((r) => r.schema === ctx.schema).map((r) => r.name)
  const similar = names.find((candidate) => candidate.toLowerCase() === name.toLowerCase())
  throw new RestError(
    404,
    'PGRST205',
    `Could not find the table '${ctx.schema}.${name}' in the schema cache`,
    null,
    similar ? `Perhaps you meant the table '${ctx.schema}.${similar}'` : null,
  )
}

/** Filters, orders and ranges of embedded resources (`rel.col=…`, `rel.order=…`, `rel.limit=…`). */
export function attachEmbedded(
  root: ReadNode,
  parts: QueryParts,
  maxRows: number,
  includeRoot: boolean,
): void {
  for (const { path, tree } of parts.conditions) {
    if (path.length > 0 || includeRoot) attachCondition(nodeAt(root, path), tree)
  }
  for (const { path, terms } of parts.order) {
    if (path.length > 0 || includeRoot) attachOrder(nodeAt(root, path), terms)
  }
  for (const [key, range] of parts.ranges) {
    if (key === '') continue
    const node = nodeAt(root, key.split('\u0000'))
    const { offset, limit } = requestedRange(range, undefined, maxRows)
    node.offset = offset
    if (limit !== undefined) node.limit = limit
  }
}

/** Reads the statement results into the response: body, Content-Range, status. */
export function countFrom(ctx: RestRequest, row: BodyRow, planned: number | undefined): number | undefined {
  const exact = row.total === null ? undefined : Number(row.total)
  if (ctx.prefs.count === 'exact') return exact
  if (ctx.prefs.count === 'planned') return planned
  if (ctx.prefs.count === 'estimated')
    return exact !== undefined && exact <= ctx.cache.config.maxRows ? exact : planned
  return undefined
}

export function plannedRows(result: { rows: Record<string, unknown>[] } | undefined): number | undefined {
  const plan = result?.rows[0]?.['QUERY PLAN'] as { Plan?: { 'Plan Rows'?: number } }[] | undefined
  const rows = plan?.[0]?.Plan?.['Plan Rows']
  return typeof rows === 'number' ? rows : undefined
}

export interface ReadPlanOptions {
  method: string
  rangeHeader: string | undefined
  maxRows: number
  count: Preferences['count']
  stripNulls: boolean
  csv?: boolean
  /** ST_AsGeoJSON for application/geo+json (PostGIS installed). */
  geoJson?: string
}

/** The statements a table read runs (the benchmark runs exactly these directly, too). */
export function planTableRead(
  cache: SchemaCache,
  relation: Relation,
  search: URLSearchParams,
  options: ReadPlanOptions,
): { statements: Statement[]; offset: number; wantsPlan: boolean } {
  const parts = parseQuery(search)
  const counter = new AliasCounter()
  const root = buildReadTree(
    cache,
    {
      name: relation.name,
      alias: counter.next('_gw'),
      from: qualifiedIdent(relation.schema, relation.name),
      columns: relation.columns,
      relation,
    },
    parts.select,
    counter,
  )
  attachEmbedded(root, parts, options.maxRows, true)
  const range = requestedRange(parts.ranges.get(''), options.rangeHeader, options.maxRows)
  root.offset = range.offset
  if (range.limit !== undefined) root.limit = range.limit
  const statements: Statement[] = []
  const wantsPlan = options.count === 'planned' || options.count === 'estimated'
  if (wantsPlan) statements.push(plannedCountStatement(root))
  statements.push(
    bodyStatement(root, {
      count: options.count,
      maxRows: options.maxRows,
      noBody: options.method === 'HEAD',
      stripNulls: options.stripNulls,
      csv: options.csv ?? false,
      ...(options.geoJson && { geoJson: options.geoJson }),
    }),
  )
  return { statements, offset: range.offset, wantsPlan }
}

type ReadPlan = ReturnType<typeof planTableRead>

/**
 * Plans of recent reads by everything they depend on, so a repeated request (the common case: the
 * same screen loading for many users) skips parsing and SQL building. Cleared with each schema cache.
 */
const planCache = new WeakMap<SchemaCache, Map<string, ReadPlan>>()

function cachedPlan(ctx: RestRequest, relation: Relation): ReadPlan {
  const { request, prefs } = ctx
  const key = [
    request.method,
    ctx.schema,
    relation.name,
    request.url.search,
    request.req.headers.range ?? '',
    prefs.count ?? '',
    ctx.accept.stripNulls,
    ctx.accept.type,
  ].join('\u0000')
  let plans = planCache.get(ctx.cache)
  if (!plans) {
    plans = new Map()
    planCache.set(ctx.cache, plans)
  }
  const hit = plans.get(key)
  if (hit) return hit
  const plan = planTableRead(ctx.cache, relation, request.url.searchParams, {
    method: request.method,
    rangeHeader: request.req.headers.range,
    maxRows: ctx.cache.config.maxRows,
    count: prefs.count,
    stripNulls: ctx.accept.stripNulls,
    csv: ctx.accept.type === 'csv',
    ...(ctx.accept.type === 'geojson' && ctx.cache.geoJsonFunction && { geoJson: ctx.cache.geoJsonFunction }),
  })
  if (plans.size >= 1000) plans.clear()
  plans.set(key, plan)
  return plan
}

export async function readTable(ctx: RestRequest, name: string): Promise<void> {
  const relation = findRelation(ctx, name)
  const { request, service, prefs } = ctx
  const { statements, offset, wantsPlan } = cachedPlan(ctx, relation)
  if (ctx.accept.plan) return sendPlan(ctx, statements.at(-1) as Statement, true)
  const { results } = await service.executor.transaction(ctx.settings, statements, {
    readOnly: true,
    end: 'commit',
  })
  const row = bodyRow(results.at(-1))
  const total = countFrom(ctx, row, wantsPlan ? plannedRows(results[0]) : undefined)
  const { status, header } = contentRange(offset, row.n, total)
  const overrides = gucOverrides(row)
  const headers: Record<string, string> = { 'Content-Range': header, ...overrides.headers }
  const applied = prefs.applied.filter((p) => p.startsWith('count='))
  if (applied.length > 0) headers['Preference-Applied'] = applied.join(', ')
  if (request.method === 'HEAD') {
    headers['Content-Type'] = 'application/json; charset=utf-8'
    return send(request.res, overrides.status ?? status, headers, undefined)
  }
  const { contentType, payload } = formatBody(ctx.accept, row)
  headers['Content-Type'] = contentType
  send(request.res, overrides.status ?? status, headers, payload)
}
