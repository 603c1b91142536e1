// GET and HEAD on a table or view.

import type { RestRequest } from './context.ts'
import { RestError } from './errors.ts'
import { contentRange, requestedRange } from './negotiate.ts'
import { parseQuery, type QueryParts } from './parse/query.ts'
import { AliasCounter, attachCondition, attachOrder, buildReadTree, nodeAt, type ReadNode } from './plan.ts'
import { type BodyRow, formatBody, gucOverrides, send } from './respond.ts'
import { qualified, type Relation } from './schema-cache.ts'
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
    return exact !== undefined && exact <= ctx.service.config.maxRows ? exact : planned
  return undefined
}

export function plannedRows(result: { rows: Record<string, unknown>[] } | undefined): number | undefined {
  const plan = result?.rows[0]?.['QUERY PLAN'] as { Plan?: { 'Plan Rows'?: number } }[] | undefined
  const rows = plan?.[0]?.Plan?.['Plan Rows']
  return typeof rows === 'number' ? rows : undefined
}

export async function readTable(ctx: RestRequest, name: string): Promise<void> {
  const relation = findRelation(ctx, name)
  const { request, service, prefs } = ctx
  const parts = parseQuery(request.url.searchParams)
  const counter = new AliasCounter()
  const root = buildReadTree(
    ctx.cache,
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
  attachEmbedded(root, parts, service.config.maxRows, true)
  const range = requestedRange(parts.ranges.get(''), request.req.headers.range, service.config.maxRows)
  root.offset = range.offset
  if (range.limit !== undefined) root.limit = range.limit

  const statements: Statement[] = []
  const wantsPlan = prefs.count === 'planned' || prefs.count === 'estimated'
  if (wantsPlan) statements.push(plannedCountStatement(root))
  statements.push(
    bodyStatement(root, {
      count: prefs.count,
      maxRows: service.config.maxRows,
      noBody: request.method === 'HEAD',
      stripNulls: ctx.accept.stripNulls,
    }),
  )
  const { results } = await service.executor.transaction(ctx.settings, statements, {
    readOnly: true,
    end: 'commit',
  })
  const row = results.at(-1)?.rows[0] as BodyRow
  const total = countFrom(ctx, row, wantsPlan ? plannedRows(results[0]) : undefined)
  const { status, header } = contentRange(range.offset, row.n, total)
  const overrides = gucOverrides(row)
  const headers: Record<string, string> = { 'Content-Range': header, ...overrides.headers }
  if (prefs.applied.length > 0)
    headers['Preference-Applied'] = prefs.applied.filter((p) => p.startsWith('count=')).join(', ')
  if (!headers['Preference-Applied']) delete headers['Preference-Applied']
  if (request.method === 'HEAD') {
    headers['Content-Type'] = 'application/json; charset=utf-8'
    return send(request.res, overrides.status ?? status, headers, undefined)
  }
  const { contentType, payload } = formatBody(ctx.accept, row)
  headers['Content-Type'] = contentType
  send(request.res, overrides.status ?? status, headers, payload)
}
