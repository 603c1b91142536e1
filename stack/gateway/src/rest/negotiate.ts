// What the client accepts (JSON array, single object, CSV, nulls stripped) and which rows it asked for
// (limit/offset, the Range header, max-rows), with Content-Range and the status that goes with it.
import { RestError } from './errors.ts'

export type MediaType = 'json' | 'object' | 'csv'

export interface Accept {
  type: MediaType
  stripNulls: boolean
}

const JSON_TYPES = new Set(['application/json', 'application/*', '*/*', 'application/vnd.pgrst.array+json'])

/** Clients send the same few Accept headers; their outcome is remembered (bounded). */
const negotiated = new Map<string, Accept>()

export function negotiate(header: string | undefined): Accept {
  if (!header) return { type: 'json', stripNulls: false }
  const known = negotiated.get(header)
  if (known) return { ...known }
  const accept = negotiateHeader(header)
  if (negotiated.size >= 200) negotiated.clear()
  negotiated.set(header, accept)
  return { ...accept }
}

function negotiateHeader(header: string): Accept {
  const offered = header.split(',').map((part) => part.trim())
  for (const entry of offered) {
    const [mime = '', ...params] = entry.split(';').map((p) => p.trim().toLowerCase())
    const stripNulls = params.includes('nulls=stripped')
    if (JSON_TYPES.has(mime))
      return { type: 'json', stripNulls: stripNulls && mime === 'application/vnd.pgrst.array+json' }
    if (mime === 'application/vnd.pgrst.object+json' || mime === 'application/vnd.pgrst.object')
      return { type: 'object', stripNulls }
    if (mime === 'text/csv') return { type: 'csv', stripNulls: false }
  }
  throw new RestError(406, 'PGRST107', `None of these media types are available: ${offered.join(', ')}`)
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
