// The one statement a request runs: rows as JSON text (built by Postgres, passed through untouched),
// their count, the total when asked, and what functions set in response.headers / response.status.
import type { ReadNode } from '../plan.ts'
import { ident, Params } from './fragments.ts'
import { rowSelect } from './read.ts'

export type CountMode = 'exact' | 'planned' | 'estimated' | undefined

export interface Statement {
  text: string
  values: unknown[]
  /** Values as Postgres's text, unparsed. */
  rawText?: boolean
}

export interface BodyOptions {
  /** A CTE that produces the rows (a mutation), placed before the SELECT. */
  with?: string
  count: CountMode
  maxRows: number
  /** HEAD and return=minimal: count only. */
  noBody: boolean
  stripNulls: boolean
  /** text/csv: rows in their Postgres text form, as PostgREST renders CSV, plus the first row for the header. */
  csv?: boolean
  /** application/geo+json: the rows as a FeatureCollection through this ST_AsGeoJSON (PostGIS), as PostgREST builds it. */
  geoJson?: string
  /** Extra output columns (an expression with its alias), e.g. an upsert's inserted count. */
  extraColumns?: string
  /** Aggregate this column's values instead of row objects (functions returning scalars). */
  scalarColumn?: string
}

const RESPONSE_GUCS =
  "nullif(current_setting('response.headers', true), '') AS response_headers, nullif(current_setting('response.status', true), '') AS response_status"

export function bodyStatement(root: ReadNode, options: BodyOptions, params = new Params()): Statement {
  let total = 'NULL::bigint'
  if (options.count === 'exact') {
    total = `(SELECT count(*) FROM (${rowSelect(root, params, { countOnly: true })}) AS _gwt)`
  } else if (options.count === 'estimated') {
    // Exact up to max-rows; beyond that the planner's estimate (from the EXPLAIN statement) is used.
    total = `(SELECT count(*) FROM (${rowSelect(root, params, { countOnly: true })} LIMIT ${options.maxRows + 1}) AS _gwt)`
  }
  const element = options.scalarColumn ? `_gwr.${ident(options.scalarColumn)}` : '_gwr.*'
  const agg = options.geoJson
    ? `json_build_object('type', 'FeatureCollection', 'features', COALESCE(json_agg(${options.geoJson}(_gwr.*)::json), '[]'::json))`
    : `COALESCE(json_agg(${element}), '[]'::json)`
  const body = options.noBody
    ? 'NULL::text'
    : `${options.stripNulls ? `json_strip_nulls(${agg})` : agg}::text`
  const rows = rowSelect(root, params)
  const csvColumns = options.csv
    ? ", coalesce(string_agg(substring(ROW(_gwr.*)::text, 2, length(ROW(_gwr.*)::text) - 2), chr(10)), '') AS csv_body, (array_agg(row_to_json(_gwr.*)))[1]::text AS csv_head"
    : ''
  const text = `${options.with ? `WITH ${options.with} ` : ''}SELECT ${total} AS total, count(*)::int AS n, ${options.csv ? 'NULL::text' : body} AS body${csvColumns}${options.extraColumns ? `, ${options.extraColumns}` : ''}, ${RESPONSE_GUCS} FROM (${rows}) AS _gwr`
  return { text, values: params.values }
}

/** EXPLAIN of the count query, for `count=planned|estimated`. */
export function plannedCountStatement(root: ReadNode): Statement {
  const params = new Params()
  const text = `EXPLAIN (FORMAT JSON) ${rowSelect(root, params, { countOnly: true })}`
  return { text, values: params.values }
}
