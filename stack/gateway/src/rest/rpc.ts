// /rpc/<fn>: calls a function with named arguments from the query (GET/HEAD) or the JSON body (POST),
// or the whole body as its single unnamed json/jsonb argument. Set-returning functions take the same
// filters, order, limits, counts and embeds as tables; void answers 204, a scalar its JSON value.
import type { RestRequest } from './context.ts'
import { invalidBody, RestError } from './errors.ts'
import { sendPlan } from './explain.ts'
import { closest } from './fuzzy.ts'
import { contentRange, requestedRange } from './negotiate.ts'
import { parseQuery } from './parse/query.ts'
import { AliasCounter, buildReadTree } from './plan.ts'
import { attachEmbedded, countFrom, plannedRows } from './read.ts'
import { bodyRow, firstElement, formatBody, gucOverrides, send } from './respond.ts'
import { type Column, qualified, type Routine } from './schema-cache.ts'
import { ident, Params, qualifiedIdent } from './sql/fragments.ts'
import { bodyStatement, plannedCountStatement, type Statement } from './sql/statements.ts'

const JSON_TYPES = new Set(['json', 'jsonb'])
const RAW_BODY_TYPES: Record<string, string> = {
  'text/plain': 'text',
  'application/octet-stream': 'bytea',
  'text/xml': 'xml',
}
const mediaType = (header: string | undefined) => (header ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
const SCALAR = 'pgrst_scalar'

function noFunction(ctx: RestRequest, name: string, keys: string[], post: boolean): RestError {
  const func = `${ctx.schema}.${name}`
  const list = keys.join(', ')
  const withParams = keys.length === 0 ? ' without parameters' : `(${list})`
  const detailParams =
    keys.length === 0 ? ' without parameters' : ` with parameter${keys.length > 1 ? 's' : ''} ${list}`
  const names = [...ctx.cache.routines.values()]
    .flat()
    .filter((r) => r.schema === ctx.schema)
    .map((r) => r.name)
  const suggestion = names.includes(name) ? undefined : closest(name, names)
  return new RestError(
    404,
    'PGRST202',
    `Could not find the function ${func}${withParams} in the schema cache`,
    `Searched for the function ${func}${detailParams}${post ? ' or with a single unnamed json/jsonb parameter' : ''}, but no matches were found in the schema cache.`,
    suggestion ? `Perhaps you meant to call the function ${ctx.schema}.${suggestion}` : null,
  )
}

const isSingleUnnamed = (r: Routine) => r.params.length === 1 && r.params[0]?.name === ''

function choose(
  ctx: RestRequest,
  name: string,
  routines: Routine[],
  keys: string[],
  post: boolean,
): { routine: Routine; wholeBody: boolean } {
  const given = new Set(keys)
  // PostgREST's findProc (src/library/PostgREST/Plan.hs): the keys must name every required
  // parameter and nothing but parameters; a single unnamed parameter is named "" there, so {"": v}
  // selects it, and such a function always gets the whole body cast to its type (OnePosParam in
  // Query/QueryBuilder.hs). Other functions with unnamed parameters cannot be called by name.
  const matching = routines.filter(
    (r) =>
      (isSingleUnnamed(r) || r.params.every((p) => p.name !== '')) &&
      keys.every((k) => r.params.some((p) => p.name === k)) &&
      r.params.every((p) => !p.required || given.has(p.name)),
  )
  if (matching.length === 1) {
    const routine = matching[0] as Routine
    return { routine, wholeBody: isSingleUnnamed(routine) }
  }
  if (matching.length > 1) {
    throw new RestError(
      300,
      'PGRST203',
      `Could not choose the best candidate function between: ${matching.map((r) => `${r.schema}.${r.name}(${r.params.map((p) => `${p.name} => ${p.type}`).join(', ')})`).join(', ')}`,
      null,
      'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
    )
  }
  if (post) {
    const single = routines.find(
      (r) => r.params.length === 1 && r.params[0]?.name === '' && JSON_TYPES.has(r.params[0].type),
    )
    if (single) return { routine: single, wholeBody: true }
  }
  throw noFunction(ctx, name, keys, post)
}

/** The FROM item calling the function, every argument a bind parameter cast to its declared type. */
function callFrom(
  routine: Routine,
  args:
    | { kind: 'query'; values: Map<string, string> }
    | { kind: 'body'; raw: string; keys: string[] }
    | { kind: 'whole'; raw: string },
  params: Params,
): string {
  const fn = qualifiedIdent(routine.schema, routine.name)
  if (args.kind === 'whole') return `${fn}(${params.add(args.raw)}::${routine.params[0]?.type})`
  if (args.kind === 'query') {
    const list = routine.params
      .filter((p) => args.values.has(p.name))
      .map((p) => `${ident(p.name)} := ${params.add(args.values.get(p.name))}::${p.type}`)
    return `${fn}(${list.join(', ')})`
  }
  const used = routine.params.filter((p) => args.keys.includes(p.name))
  if (used.length === 0) return `${fn}()`
  const typed = used.map((p) => `${ident(p.name)} ${p.type}`).join(', ')
  const call = used.map((p) => `${ident(p.name)} := _gwa.${ident(p.name)}`).join(', ')
  return `json_to_record(${params.add(args.raw)}::json) AS _gwa(${typed}) CROSS JOIN LATERAL ${fn}(${call})`
}

export async function callRoutine(ctx: RestRequest, name: string): Promise<void> {
  const { request, service, prefs } = ctx
  const routines = ctx.cache.routines.get(qualified(ctx.schema, name)) ?? []
  const post = request.method === 'POST'
  const paramNames = new Set(routines.flatMap((r) => r.params.map((p) => p.name)))
  // Without any function of that name every plain parameter counts as an argument (for the error).
  const parts = parseQuery(
    request.url.searchParams,
    (key) => !post && (routines.length === 0 || paramNames.has(key)),
  )

  let chosen: { routine: Routine; wholeBody: boolean }
  let args: Parameters<typeof callFrom>[1]
  const rawType = post ? RAW_BODY_TYPES[mediaType(request.req.headers['content-type'])] : undefined
  if (rawType) {
    // docs/references/api/functions.rst, "Functions with a single unnamed parameter": text/plain,
    // application/octet-stream and text/xml bodies go whole to a single unnamed text, bytea or xml
    // parameter.
    const routine = routines.find(
      (r) => r.params.length === 1 && r.params[0]?.name === '' && r.params[0].type === rawType,
    )
    if (!routine) throw noFunction(ctx, name, [], true)
    const body = await request.body()
    chosen = { routine, wholeBody: true }
    // Parameters travel in text form: bytea as its hex escape.
    args = { kind: 'whole', raw: rawType === 'bytea' ? `\\x${body.toString('hex')}` : body.toString('utf8') }
  } else if (post) {
    const raw = (await request.body()).toString('utf8')
    let value: unknown = {}
    if (raw.trim() !== '') {
      try {
        value = JSON.parse(raw)
      } catch {
        throw invalidBody('Empty or invalid json')
      }
    }
    const keys =
      typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value) : []
    if (routines.length === 0) throw noFunction(ctx, name, keys, true)
    chosen = choose(ctx, name, routines, keys, true)
    args = chosen.wholeBody
      ? { kind: 'whole', raw: raw.trim() === '' ? '{}' : raw }
      : { kind: 'body', raw: raw.trim() === '' ? '{}' : raw, keys }
  } else {
    const keys = [...parts.args.keys()]
    if (routines.length === 0) throw noFunction(ctx, name, keys, false)
    chosen = choose(ctx, name, routines, keys, false)
    if (chosen.wholeBody) throw noFunction(ctx, name, keys, false)
    args = { kind: 'query', values: parts.args }
  }
  const { routine } = chosen
  if (routine.returnKind === 'composite' && routine.returnColumns.length === 0)
    throw new RestError(
      400,
      'PGRST127',
      'Feature not implemented',
      'Functions returning an untyped record cannot be called',
    )

  const params = new Params()
  const from = callFrom(routine, args, params)
  const scalar = routine.returnKind !== 'composite'
  const counter = new AliasCounter()
  const alias = counter.next('_gw')
  const columns: Map<string, Column> = scalar
    ? new Map([
        [
          SCALAR,
          {
            name: SCALAR,
            type: routine.returnType,
            notNull: false,
            default: null,
            generated: false,
            isTsvector: false,
          },
        ],
      ])
    : new Map(routine.returnColumns.map((c) => [c.name, c]))
  const scalarFrom = `(SELECT _gws.${ident(SCALAR)} FROM ${from} AS _gws(${ident(SCALAR)}))`
  const root = buildReadTree(
    ctx.cache,
    {
      name: routine.name,
      alias,
      from: scalar ? scalarFrom : from,
      columns,
      ...(routine.returnRelation && { relation: routine.returnRelation }),
    },
    scalar ? [{ kind: 'field', field: { name: SCALAR, path: [] } }] : parts.select,
    counter,
  )
  attachEmbedded(root, parts, ctx.cache.config.maxRows, true)
  const range = requestedRange(parts.ranges.get(''), request.req.headers.range, ctx.cache.config.maxRows)
  root.offset = range.offset
  if (range.limit !== undefined) root.limit = range.limit

  const statements: Statement[] = []
  const wantsPlan = prefs.count === 'planned' || prefs.count === 'estimated'
  if (wantsPlan) statements.push(plannedCountStatement(root))
  const body = bodyStatement(
    root,
    {
      count: prefs.count,
      maxRows: ctx.cache.config.maxRows,
      noBody: request.method === 'HEAD' || prefs.return === 'minimal',
      stripNulls: ctx.accept.stripNulls,
      csv: ctx.accept.type === 'csv',
      ...(scalar && { scalarColumn: SCALAR }),
    },
    params,
  )
  statements.push(body)
  const readOnly = !post || routine.volatility !== 'v'
  if (ctx.accept.plan) return sendPlan(ctx, body, readOnly)
  const maxAffected = prefs.strict && prefs.maxAffected !== undefined ? prefs.maxAffected : undefined
  if (maxAffected !== undefined && !routine.returnsSet)
    throw new RestError(
      400,
      'PGRST128',
      'Function must return SETOF or TABLE when max-affected preference is used with handling=strict',
    )
  const needsCheck = maxAffected !== undefined || ctx.accept.type === 'object'
  const end = needsCheck ? 'decide' : prefs.tx === 'rollback' ? 'rollback' : 'commit'
  const tx = await service.executor.transaction(ctx.settings, statements, { readOnly, end })
  const row = bodyRow(tx.results.at(-1))
  if (needsCheck) {
    let failure: RestError | undefined
    if (maxAffected !== undefined && row.n > maxAffected)
      failure = new RestError(
        400,
        'PGRST124',
        'Query result exceeds max-affected preference constraint',
        `The query affects ${row.n} rows`,
      )
    else if (ctx.accept.type === 'object' && routine.returnsSet && row.n !== 1)
      failure = new RestError(
        406,
        'PGRST116',
        'Cannot coerce the result to a single JSON object',
        `The result contains ${row.n} rows`,
      )
    await tx.finish(!failure && prefs.tx !== 'rollback')
    if (failure) throw failure
  }

  const overrides = gucOverrides(row)
  const headers: Record<string, string> = { ...overrides.headers }
  if (prefs.applied.length > 0) headers['Preference-Applied'] = prefs.applied.join(', ')
  if (routine.returnKind === 'void') return send(request.res, overrides.status ?? 204, headers, undefined)
  const total = countFrom(ctx, row, wantsPlan ? plannedRows(tx.results[0]) : undefined)
  // PostgREST ranges every call's result, a single value being one row (Response.hs, CallReadPlan:
  // rangeStatusHeader over the query and table totals), so count=exact carries the total too.
  const ranged = contentRange(range.offset, row.n, total)
  const status = routine.returnsSet ? ranged.status : 200
  headers['Content-Range'] = ranged.header
  if (request.method === 'HEAD' || prefs.return === 'minimal') {
    return send(
      request.res,
      overrides.status ?? (request.method === 'HEAD' ? status : 204),
      headers,
      undefined,
    )
  }
  if (!routine.returnsSet) {
    headers['Content-Type'] = 'application/json; charset=utf-8'
    return send(request.res, overrides.status ?? 200, headers, firstElement(row.body ?? '[]'))
  }
  const { contentType, payload } = formatBody(ctx.accept, row)
  headers['Content-Type'] = contentType
  send(request.res, overrides.status ?? status, headers, payload)
}
