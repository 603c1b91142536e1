// Database errors as HTTP answers. The migrations raise user-facing messages with SQLSTATEs that
// say what went wrong (see supabase/migrations/*_api_operations.sql); those become 4xx with the
// message as written. Anything else (a broken query, a missing grant) is a bug: it stays a plain
// Error so errorResponse logs it and answers a bare 500.
import { badRequest, conflict, HttpError, notFound, unprocessable } from './errors.ts'

/** The shape of a PostgREST error as supabase-js returns it. */
export interface DbError {
  code?: string
  message: string
  details?: string | null
  hint?: string | null
}

export class DatabaseError extends Error {
  override name = 'DatabaseError'
  constructor(override readonly cause: DbError) {
    super(`${cause.code ?? 'no code'}: ${cause.message}${cause.details ? ` (${cause.details})` : ''}`)
  }
}

/** The HTTP error for a database error, or a DatabaseError (a 500) when it is not the caller's doing. */
export function fromDbError(error: DbError, notFoundMessage = 'Not found'): HttpError | DatabaseError {
  switch (error.code) {
    case 'PGRST116': // .single() found no row: under RLS that is also "not yours"
      return notFound(notFoundMessage)
    case 'PT404': // the migrations' "… not found" (PostgREST answers a direct RPC call with 404)
    case 'P0002':
      return notFound(error.message)
    case 'PT409': // the row's status does not allow it (PostgREST: 409)
    case '55000':
    case '23505':
      return conflict(error.message)
    case '42501':
      // A status guard trigger ("A campaign cannot go from completed to paused"), or RLS refusing a
      // write to a row the caller cannot see. Neither is a server fault.
      return error.message.startsWith('permission denied')
        ? notFound(notFoundMessage)
        : conflict(error.message)
    case 'P0001':
      if (error.hint === 'too_many_connects') return new HttpError(429, error.message)
      return error.hint === 'account_limit' ? unprocessable(error.message) : badRequest(error.message)
    case '22023': // invalid parameter value: the migrations' validation messages
    case '23514': // check constraint
    case '23503': // "Choose one of your social accounts…": a reference that is not the caller's
    case '22P02': // invalid text representation
    case '22021': // a byte sequence Postgres text cannot hold (NUL)
      return badRequest(error.message)
    default:
      return new DatabaseError(error)
  }
}

/** Data of a supabase-js result, or the mapped error thrown. */
export function must<T>(
  result: { data: T | null; error: DbError | null },
  notFoundMessage = 'Not found',
): NonNullable<T> {
  if (result.error) throw fromDbError(result.error, notFoundMessage)
  const { data } = result
  if (data === null || data === undefined) throw notFound(notFoundMessage)
  return data
}
