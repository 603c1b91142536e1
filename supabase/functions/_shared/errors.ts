// Errors a function answers with: JSON `{error: "…"}` and a status that means something. An
// HttpError is an expected outcome with a message meant for the user; anything else is a bug,
// logged in full and answered as a bare 500 so no internals (SQL, stack traces, keys) leak.
import { corsHeaders, preflight, withCors } from './cors.ts'

export class HttpError extends Error {
  override name = 'HttpError'
  constructor(
    readonly status: number,
    message: string,
    /** Extra JSON fields for the client, e.g. validation issues. Never put secrets here. */
    readonly details?: Record<string, unknown>,
    /** Extra response headers, e.g. Allow on 405. */
    readonly headers?: Record<string, string>,
  ) {
    super(message)
  }
}

export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new HttpError(400, message, details)
export const unauthorized = (message: string) => new HttpError(401, message)
export const forbidden = (message: string) => new HttpError(403, message)
export const notFound = (message = 'Not found') => new HttpError(404, message)
export const conflict = (message: string) => new HttpError(409, message)
export const payloadTooLarge = (message: string) => new HttpError(413, message)
export const unprocessable = (message: string, details?: Record<string, unknown>) =>
  new HttpError(422, message, details)

export const INTERNAL_ERROR_MESSAGE = 'Something went wrong on our side. Please try again.'

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...corsHeaders, 'Content-Type': 'application/json', ...headers },
  })
}

type Logger = (message: string, error: unknown) => void
const logToConsole: Logger = (message, error) => console.error(message, error)

/** The response for a thrown value: its own status for an HttpError, else a logged 500. */
export function errorResponse(error: unknown, log: Logger = logToConsole): Response {
  if (error instanceof HttpError) {
    return jsonResponse({ ...error.details, error: error.message }, error.status, error.headers)
  }
  log('Unhandled error in function', error)
  return jsonResponse({ error: INTERNAL_ERROR_MESSAGE }, 500)
}

/**
 * Wraps a handler for `Deno.serve`: answers CORS preflights, and turns whatever the handler throws
 * into a JSON error response. Responses the handler returns get the CORS headers too.
 */
export function handleRequest(
  handler: (req: Request) => Promise<Response> | Response,
  log: Logger = logToConsole,
): (req: Request) => Promise<Response> {
  return async (req) => {
    const early = preflight(req)
    if (early) return early
    try {
      return withCors(await handler(req))
    } catch (error) {
      return errorResponse(error, log)
    }
  }
}
