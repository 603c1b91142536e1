// PostgREST's error body {code, message, details, hint} and its status codes, including the
// SQLSTATE → HTTP table PostgREST applies to database errors (PostgREST.Error.mapSQLtoHTTP).

export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown = null,
    readonly hint: unknown = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }

  body(): Record<string, unknown> {
    return { code: this.code, details: this.details, hint: this.hint, message: this.message }
  }
}

/** PGRST100: a query parameter did not parse; message and details as PostgREST's parser reports them. */
export function parseError(what: string, input: string, column: number, details: string): RestError {
  return new RestError(
    400,
    'PGRST100',
    `"failed to parse ${what} (${input})" (line 1, column ${column})`,
    details,
  )
}

export const invalidBody = (message: string) => new RestError(400, 'PGRST102', message)

export function unknownSchema(schema: string, exposed: readonly string[]): RestError {
  return new RestError(
    406,
    'PGRST106',
    `Invalid schema: ${schema}`,
    null,
    `Only the following schemas are exposed: ${exposed.join(', ')}`,
  )
}

export const singularity = (rows: number) =>
  new RestError(
    406,
    'PGRST116',
    'Cannot coerce the result to a single JSON object',
    `The result contains ${rows} rows`,
  )

export const columnNotFound = (relation: string, column: string) =>
  new RestError(400, 'PGRST204', `Could not find the '${column}' column of '${relation}' in the schema cache`)

/** What Postgres says for an unknown column; we answer it from the schema cache before any SQL runs. */
export const undefinedColumn = (relation: string, column: string) =>
  new RestError(400, '42703', `column ${relation}.${column} does not exist`)

interface PgErrorLike {
  code?: string
  message: string
  detail?: string
  hint?: string
}

function isPgError(error: unknown): error is PgErrorLike & { code: string } {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as PgErrorLike).code === 'string' &&
    /^[0-9A-Z]{5}$/.test((error as PgErrorLike).code ?? '')
  )
}

function statusForSqlState(code: string, message: string, authenticated: boolean): number {
  if (code === '23503' || code === '23505') return 409
  if (code === '25006') return 405
  if (code === 'P0001') return 400
  if (code === '42883') return 404
  if (code === '42P01') return 404
  if (code === '42P17') return 500
  if (code === '42501') return authenticated ? 403 : 401
  if (code === '21000') return message.endsWith('requires a WHERE clause') ? 400 : 500
  if (code === '22023') return message.startsWith('role') && message.endsWith('does not exist') ? 401 : 400
  if (code === '53400') return 500
  if (code === '57P01') return 503
  if (code.startsWith('PT')) {
    const status = Number(code.slice(2))
    return Number.isInteger(status) && status >= 100 && status <= 599 ? status : 500
  }
  const prefix = code.slice(0, 2)
  if (prefix === '08' || prefix === '53') return 503
  if (prefix === '0L' || prefix === '0P' || prefix === '28') return 403
  if (
    ['09', '25', '2D', '38', '39', '3B', '40', '54', '55', '57', '58', 'F0', 'HV', 'P0', 'XX'].includes(
      prefix,
    )
  )
    return 500
  return 400
}

/** A RAISE SQLSTATE 'PGRST' error: message and detail are JSON that set the whole response. */
function raisedPgrst(error: PgErrorLike): RestError {
  try {
    const message = JSON.parse(error.message) as {
      code?: unknown
      message?: unknown
      details?: unknown
      hint?: unknown
    }
    const detail = JSON.parse(error.detail ?? '') as { status?: unknown; headers?: unknown }
    if (typeof message.code !== 'string' || typeof message.message !== 'string') throw new Error('message')
    if (typeof detail.status !== 'number' || typeof detail.headers !== 'object' || !detail.headers)
      throw new Error('detail')
    const headers = Object.fromEntries(
      Object.entries(detail.headers as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
    )
    return new RestError(
      detail.status,
      message.code,
      message.message,
      message.details ?? null,
      message.hint ?? null,
      headers,
    )
  } catch {
    return new RestError(
      500,
      'PGRST121',
      'Could not parse JSON in the "RAISE SQLSTATE \'PGRST\'" error',
      'Invalid JSON value for MESSAGE or DETAIL',
      "MESSAGE must be a JSON object with obligatory keys: 'code', 'message' and optional keys: 'details', 'hint'.",
    )
  }
}

/** Any error thrown while talking to Postgres, as the response PostgREST would give. */
export function toRestError(error: unknown, authenticated: boolean): RestError {
  if (error instanceof RestError) return error
  if (isPgError(error)) {
    if (error.code === 'PGRST') return raisedPgrst(error)
    const status = statusForSqlState(error.code, error.message, authenticated)
    const headers: Record<string, string> = status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {}
    return new RestError(status, error.code, error.message, error.detail ?? null, error.hint ?? null, headers)
  }
  if (isConnectionFailure(error)) {
    const message = error instanceof Error ? error.message : String(error)
    return new RestError(503, 'PGRST000', 'Database connection error. Retrying the connection.', message)
  }
  throw error
}

/** Socket-level failures (refused, reset, terminated, pool timeout): the database is unreachable now. */
function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const code = (error as { code?: string }).code
  if (code && ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND'].includes(code)) return true
  return /Connection terminated|connection error|timeout exceeded when trying to connect|not queryable/i.test(
    error.message,
  )
}
