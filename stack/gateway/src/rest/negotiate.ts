// What the client accepts (JSON array, single object, CSV, nulls stripped) and which rows it asked for
// (limit/offset, the Range header, max-rows), with Content-Range and the status that goes with it.
import { RestError } from './errors.ts'

export type MediaType = 'json' | 'object' | 'csv' | 'geojson'

/** `Accept: application/vnd.pgrst.plan…`: EXPLAIN the statement instead of running it for `type`. */
export interface PlanRequest {
  format: 'json' | 'text'
  /** EXPLAIN options in PostgREST's order: analyze, verbose, settings, buffers, wal. */
  options: string[]
  contentType: string
}

export interface Accept {
  type: MediaType
  stripNulls: boolean
  plan?: PlanRequest
}

const JSON_TYPES = new Set(['application/json', 'application/*', '*/*', 'application/vnd.pgrst.array+json'])
const PLAN_OPTIONS = ['analyze', 'verbose', 'settings', 'buffers', 'wal']

/** Clients send the same few Accept headers; their outcome is remembered (bounded). */
const negotiated = new Map<string, Accept>()

/**
 * `planEnabled`: `pgrst.db_plan_enabled`; without it the plan media types match nothing (406).
 * `geoJson`: PostGIS is installed, so `application/geo+json` can be produced (406 otherwise).
 */
export function negotiate(header: string | undefined, planEnabled = false, geoJson = false): Accept {
  if (!header) return { type: 'json', stripNulls: false }
  const key = `${planEnabled ? 'plan' : ''}\u0000${geoJson ? 'geo' : ''}\u0000${header}`
  const known = negotiated.get(key)
  if (known) return { ...known }
  const accept = negotiateHeader(header, planEnabled, geoJson)
  if (negotiated.size >= 200) negotiated.clear()
  negotiated.set(key, accept)
  return { ...accept }
}

interface Decoded {
  mime: string
  params: Map<string, string>
}

/**
 * PostgREST's tokenizeMediaType (MediaType.hs): `type/subtype`, then `; key=value` pairs, a value
 * quoted or made of letters, digits, `|` and `-`. It is a prefix parser: the first pair that does not
 * parse ends the parameters and the rest is ignored, so `options=;` (what postgrest-js's
 * `.explain()` sends without options) is no options.
 */
function decode(entry: string): Decoded | undefined {
  const head = /^([A-Za-z0-9.*]+\/[A-Za-z0-9.*+-]+)/.exec(entry)
  if (!head) return undefined
  const params = new Map<string, string>()
  const pair = /^\s*;\s*([A-Za-z0-9-]+)\s*=\s*(?:"([^"]*)"|([A-Za-z0-9|-]+))/
  let rest = entry.slice(head[0].length)
  for (let match = pair.exec(rest); match; match = pair.exec(rest)) {
    params.set((match[1] as string).toLowerCase(), match[2] ?? match[3] ?? '')
    rest = rest.slice(match[0].length)
  }
  return { mime: (head[1] as string).toLowerCase(), params }
}

/** A media type other than the plan's, or undefined when this gateway cannot produce it. */
function plainType(mime: string, params: Map<string, string>, geoJson: boolean): Accept | undefined {
  const stripNulls = params.get('nulls') === 'stripped'
  if (mime === 'application/geo+json' && geoJson) return { type: 'geojson', stripNulls: false }
  if (JSON_TYPES.has(mime) || mime === 'application/vnd.pgrst.array')
    return { type: 'json', stripNulls: stripNulls && mime.startsWith('application/vnd.pgrst.array') }
  if (mime === 'application/vnd.pgrst.object+json' || mime === 'application/vnd.pgrst.object')
    return { type: 'object', stripNulls }
  if (mime === 'text/csv') return { type: 'csv', stripNulls: false }
  return undefined
}

/** PostgREST's toMime of a plan media type (the form its 406 message and Content-Type use). */
function planMime(format: string, target: string, options: string[]): string {
  return `application/vnd.pgrst.plan+${format}; for="${target}"${options.length ? `; options=${options.join('|')}` : ''}`
}

/** toMime of the `for` type, as PostgREST prints it back. */
function targetMime(mime: string, params: Map<string, string>): string {
  const stripped = params.get('nulls') === 'stripped'
  if (mime === 'application/json') return 'application/json'
  if (mime === 'application/vnd.pgrst.array+json' || mime === 'application/vnd.pgrst.array')
    return stripped ? 'application/vnd.pgrst.array+json;nulls=stripped' : 'application/json'
  if (mime === 'application/vnd.pgrst.object+json' || mime === 'application/vnd.pgrst.object')
    return stripped ? 'application/vnd.pgrst.object+json;nulls=stripped' : 'application/vnd.pgrst.object+json'
  return mime
}

const PLAN_FORMATS: Record<string, 'json' | 'text'> = {
  'application/vnd.pgrst.plan': 'text',
  'application/vnd.pgrst.plan+text': 'text',
  'application/vnd.pgrst.plan+json': 'json',
}

function negotiateHeader(header: string, planEnabled: boolean, geoJson: boolean): Accept {
  const offered = header.split(',').map((part) => part.trim())
  const named: string[] = []
  for (const entry of offered) {
    const decoded = decode(entry)
    const format = decoded && PLAN_FORMATS[decoded.mime]
    if (!decoded || !format) {
      const [mime = '', ...params] = entry.split(';').map((p) => p.trim().toLowerCase())
      const plain = plainType(mime, new Map(params.map((p) => p.split('=') as [string, string])), geoJson)
      named.push(entry)
      if (plain) return plain
      continue
    }
    // MediaType.hs decodeMediaType: `for` defaults to application/json; options split on `|`.
    const forText = decoded.params.get('for') ?? 'application/json'
    const target = decode(forText)
    const requested = (decoded.params.get('options') ?? '').split('|')
    const options = PLAN_OPTIONS.filter((option) => requested.includes(option))
    const mime = target ? targetMime(target.mime, target.params) : forText
    const contentType = planMime(format, mime, options)
    named.push(contentType)
    const planned = target && plainType(target.mime, target.params, geoJson)
    if (planEnabled && planned) return { ...planned, plan: { format, options, contentType } }
  }
  throw new RestError(406, 'PGRST107', `None of these media types are available: ${named.join(', ')}`)
}

export interface Range {
  offset: number
  limit?: number
}

/** Intersects limit/offset with the Range header (reads only) and max-rows. */
export function requestedRange(
  params: { limit?: number; offset?: number } | undefined,
  rangeHeader: string | undefined,
  maxRows: number | undefined,
): Range {
  let offset = params?.offset ?? 0
  let end = params?.limit === undefined ? Number.POSITIVE_INFINITY : offset + params.limit - 1
  if (rangeHeader) {
    const match = /^(\d+)-(\d*)$/.exec(rangeHeader.trim())
    if (match) {
      const lower = Number(match[1])
      const upper = match[2] ? Number(match[2]) : Number.POSITIVE_INFINITY
      if (lower > upper) {
        throw new RestError(
          416,
          'PGRST103',
          'Requested range not satisfiable',
          'The lower boundary must be lower than or equal to the upper boundary in the Range header.',
        )
      }
      offset = Math.max(offset, lower)
      end = Math.min(end, upper)
    }
  }
  if (maxRows !== undefined) end = Math.min(end, offset + maxRows - 1)
  const limit = Number.isFinite(end) ? Math.max(0, end - offset + 1) : undefined
  return { offset, ...(limit !== undefined && { limit }) }
}

/** PostgREST's Content-Range and status for a read: 206 when the page is smaller than the total. */
export function contentRange(
  offset: number,
  rows: number,
  total: number | undefined,
): { status: number; header: string } {
  const upper = offset + rows - 1
  const range = total !== 0 && offset <= upper ? `${offset}-${upper}` : '*'
  const header = `${range}/${total === undefined ? '*' : total}`
  if (total === undefined) return { status: 200, header }
  if (offset > total) {
    throw new RestError(
      416,
      'PGRST103',
      'Requested range not satisfiable',
      `An offset of ${offset} was requested, but there are only ${total} rows.`,
      null,
      { 'Content-Range': `*/${total}` },
    )
  }
  return { status: rows < total ? 206 : 200, header }
}
