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

const RAW_BODY_TYPES: Record<string, string> = {
  'text/plain': 'text',
  'application/octet-stream': 'bytea',
  'text/xml': 'xml',
}
const mediaType = (header: string | undefined) => (header ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
const SCALAR = 'pgrst_scalar'

/** PostgREST's noRpcHint (Error.hs): a name close to an existing function, or its closest parameters. */
function noFunctionHint(ctx: RestRequest, name: string, keys: string[]): string | null {
  const overloads = ctx.cache.routines.get(qualified(ctx.schema, name)) ?? []
  if (overloads.length > 0) {
    const list = (names: string[]) => `(${[...names].sort().join(', ')})`
    const params = closest(
      list(keys),
      overloads.map((r) => list(r.params.map((p) => p.name))),
      PARAMS_HINT_SCORE,
    )
    return params ? `Perhaps you meant to call the function ${ctx.schema}.${name}${params}` : null
  }
  const names = [...ctx.cache.routines.values()]
    .flat()
    .filter((r) => r.schema === ctx.schema)
    .map((r) => r.name)
  const suggestion = closest(name, names)
  return suggestion ? `Perhaps you meant to call the function ${ctx.schema}.${suggestion}` : null
}

// getFuzzyHint HintParams: parameters are suggested from a lower similarity than names.
const PARAMS_HINT_SCORE = 0.33

function noFunction(ctx: RestRequest, name: string, keys: string[], post: boolean, body?: string): RestError {
  const func = `${ctx.schema}.${name}`
  const list = keys.join(', ')
  const withParams = keys.length === 0 ? ' without parameters' : `(${list})`
  const detailParams =
    keys.length === 0 ? ' without parameters' : ` with parameter${keys.length > 1 ? 's' : ''} ${list}`
  // Error.hs NoRpc: a raw body (text, xml, bytea) names no parameters and gets no hint.
  if (body) {
    return new RestError(
      404,
      'PGRST202',
      `Could not find the function ${func} in the schema cache`,
      `Searched for the function ${func} with a single unnamed ${body} parameter, but no matches were found in the schema cache.`,
    )
  }
  return new RestError(
    404,
    'PGRST202',
    `Could not find the function ${func}${withParams} in the schema cache`,
    `Searched for the function ${func}${detailParams}${post ? ' or with a single unnamed json/jsonb parameter' : ''}, but no matches were found in the schema cache.`,
    noFunctionHint(ctx, name, keys),
  )
}

const isSingleUnnamed = (r: Routine) => r.params.length === 1 && r.params[0]?.name === ''

/**
 * PostgREST 14's matchesParams (Plan.hs findProc): without parameters, no keys (and no raw body);
 * otherwise the keys name every required parameter and only parameters.
 */
function matchesParams(routine: Routine, keys: Set<string>, rawBody: boolean): boolean {
  if (routine.params.length === 0) return keys.size === 0 && !rawBody
  const required = routine.params.filter((p) => p.required).map((p) => p.name)
  const optional = new Set(routine.params.filter((p) => !p.required).map((p) => p.name))
  const rest = [...keys].filter((k) => !optional.has(k))
  return rest.length === required.length && required.every((name) => keys.has(name))
}

/** Plan.hs hasSingleUnnamedParam: a POST body of this media type goes whole to that parameter. */
function takesWholeBody(routine: Routine, post: boolean, bodyType: string): boolean {
  return (
    post &&
    isSingleUnnamed(routine) &&
    routine.params[0]?.type !== undefined &&
    WHOLE_BODY[bodyType]?.has(routine.params[0].type) === true
  )
}

const WHOLE_BODY: Record<string, Set<string>> = {
  json: new Set(['json', 'jsonb']),
  text: new Set(['text']),
  xml: new Set(['xml']),
  bytea: new Set(['bytea']),
}

function ambiguous(routines: Routine[]): RestError {
  return new RestError(
    300,
    'PGRST203',
    `Could not choose the best candidate function between: ${routines.map((r) => `${r.schema}.${r.name}(${r.params.map((p) => `${p.name} => ${p.type}`).join(', ')})`).join(', ')}`,
    null,
    'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
  )
}

/**
 * PostgREST 14's findProc (Plan.hs): functions whose parameters the keys match win; when none
 * does, a single function taking the whole body (POST, by media type) is the fallback; more than
 * one candidate either way is PGRST203, in the order the schema cache lists them.
 */
function choose(
  ctx: RestRequest,
  name: string,
  routines: Routine[],
  keys: string[],
  post: boolean,
  bodyType: string,
): Routine {
  const given = new Set(keys)
  const rawBody = post && bodyType !== 'json'
  const matching = routines.filter((r) => matchesParams(r, given, rawBody))
  const fallback = routines.filter(
    (r) => !matchesParams(r, given, rawBody) && takesWholeBody(r, post, bodyType),
  )
  if (matching.length === 1) return matching[0] as Routine
  if (matching.length > 1) throw ambiguous(matching)
  if (fallback.length === 1) return fallback[0] as Routine
  if (fallback.length > 1) throw ambiguous(fallback)
  throw noFunction(ctx, name, keys, post, rawBody ? bodyType : undefined)
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

  let routine: Routine
  let args: Parameters<typeof callFrom>[1]
  const rawType = post ? RAW_BODY_TYPES[mediaType(request.req.headers['content-type'])] : undefined
  if (rawType) {
    // docs/references/api/functions.rst, "Functions with a single unnamed parameter": text/plain,
    // application/octet-stream and text/xml bodies go whole to a single unnamed text, bytea or xml
    // parameter; they name no parameters.
    routine = choose(ctx, name, routines, [], true, rawType)
    const body = await request.body()
    // Parameters travel in text form: bytea as its hex escape.
    const raw = rawType === 'bytea' ? `\\x${body.toString('hex')}` : body.toString('utf8')
    args = isSingleUnnamed(routine) ? { kind: 'whole', raw } : { kind: 'body', raw: '{}', keys: [] }
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
    routine = choose(ctx, name, routines, keys, true, 'json')
    const body = raw.trim() === '' ? '{}' : raw
    // Query.hs OnePosParam: a function whose one parameter is unnamed gets the whole body.
    args = isSingleUnnamed(routine) ? { kind: 'whole', raw: body } : { kind: 'body', raw: body, keys }
  } else {
    const keys = [...parts.args.keys()]
    routine = choose(ctx, name, routines, keys, false, 'json')
    args = isSingleUnnamed(routine)
      ? { kind: 'whole', raw: JSON.stringify(Object.fromEntries(parts.args)) }
      : { kind: 'query', values: parts.args }
  }
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
      ...(ctx.accept.type === 'geojson' &&
        ctx.cache.geoJsonFunction && { geoJson: ctx.cache.geoJsonFunction }),
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
