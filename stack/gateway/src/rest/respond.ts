// Writing responses: JSON text straight from Postgres, single objects, CSV, Content-Range, the
// Preference-Applied header and what a function put in response.headers / response.status.
import type { ServerResponse } from 'node:http'
import type { BatchResult } from './batch.ts'
import { csvCell } from './csv.ts'
import { RestError, singularity } from './errors.ts'
import type { Accept } from './negotiate.ts'

export interface BodyRow {
  total: string | number | null
  n: number
  body: string | null
  response_headers: string | null
  response_status: string | null
  csv_body?: string
  csv_head?: string | null
  /** Upserts: rows inserted rather than updated. */
  inserted?: number
}

/** The single row a body statement returns. */
export function bodyRow(result: BatchResult | undefined): BodyRow {
  const row = result?.rows[0]
  if (!row || typeof row.n !== 'number') throw new Error('The body statement returned no row')
  return row as unknown as BodyRow
}

export function sendError(res: ServerResponse, error: RestError): void {
  send(
    res,
    error.status,
    { ...error.headers, 'Content-Type': 'application/json; charset=utf-8' },
    JSON.stringify(error.body()),
  )
}

/** Headers and status a function set with set_config('response.headers' / 'response.status'). */
export function gucOverrides(row: BodyRow | undefined): { status?: number; headers: Record<string, string> } {
  const headers: Record<string, string> = {}
  let status: number | undefined
  if (row?.response_headers) {
    let parsed: unknown
    try {
      parsed = JSON.parse(row.response_headers)
    } catch {
      parsed = undefined
    }
    if (
      !Array.isArray(parsed) ||
      !parsed.every((h) => h && typeof h === 'object' && Object.keys(h).length === 1)
    )
      throw new RestError(
        500,
        'PGRST111',
        'response.headers guc must be a JSON array composed of objects with a single key and a string value',
      )
    for (const header of parsed as Record<string, unknown>[]) {
      for (const [key, value] of Object.entries(header)) headers[key] = String(value)
    }
  }
  if (row?.response_status) {
    const value = Number(row.response_status)
    if (!Number.isInteger(value) || value < 100 || value > 599)
      throw new RestError(500, 'PGRST112', 'response.status guc must be a valid status code')
    status = value
  }
  return { ...(status !== undefined && { status }), headers }
}

/** The body in the negotiated media type; `object` requires exactly one row (PGRST116). */
export function formatBody(accept: Accept, row: BodyRow): { contentType: string; payload: string } {
  const body = row.body ?? '[]'
  if (accept.type === 'object') {
    if (row.n !== 1) throw singularity(row.n)
    return { contentType: 'application/vnd.pgrst.object+json; charset=utf-8', payload: firstElement(body) }
  }
  if (accept.type === 'csv') {
    const keys = row.csv_head ? Object.keys(JSON.parse(row.csv_head) as Record<string, unknown>) : []
    const header = keys.map(csvCell).join(',')
    return {
      contentType: 'text/csv; charset=utf-8',
      payload: keys.length ? `${header}\n${row.csv_body ?? ''}` : '',
    }
  }
  if (accept.type === 'geojson') return { contentType: 'application/geo+json; charset=utf-8', payload: body }
  return { contentType: 'application/json; charset=utf-8', payload: body }
}

/** `[x]` → `x` without parsing: json_agg of one row prints exactly the element between brackets. */
export function firstElement(body: string): string {
  const trimmed = body.trim()
  return trimmed === '[]' ? 'null' : trimmed.slice(1, -1).trim()
}

export function send(
  res: ServerResponse,
  status: number,
  headers: Record<string, string | number>,
  payload: string | undefined,
): void {
  // A known length spares the chunked framing.
  if (payload !== undefined) headers['Content-Length'] = Buffer.byteLength(payload)
  res.writeHead(status, headers)
  res.end(payload)
}
