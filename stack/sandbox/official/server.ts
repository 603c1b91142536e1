// The HTTP frame both official-API sandboxes (Meta's Instagram API, X API v2) share: the raw body
// kept beside its parsed form (JSON, form or query), a router, thrown ApiErrors answered in the
// platform's own error shape, and every API call written to a request log tests can read.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { parseCookies, Router } from '../social/http.ts'

export { Router }

export interface ApiRequest {
  method: string
  url: URL
  headers: IncomingMessage['headers']
  cookies: Record<string, string>
  params: Record<string, string>
  /** The body exactly as received. */
  raw: string
  /** JSON object, form fields, or {} (GET). */
  body: Record<string, unknown>
  res: ServerResponse
}

/** An error answered with `body` as JSON (the platform's documented shape) and extra headers. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body === 'object' ? JSON.stringify(body) : String(body))
  }
}

export type ApiHandler = (req: ApiRequest) => void | Promise<void>

const MAX_BODY = 1_000_000

async function readRaw(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > MAX_BODY) throw new ApiError(413, { error: 'Body too large' })
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function parseBody(raw: string, type: string): Record<string, unknown> {
  if (!raw) return {}
  if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(raw))
  try {
    const parsed: unknown = JSON.parse(raw)
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {}
  } catch {
    // Both APIs answer a body they cannot read as a bad request in their own words (the caller's job).
    return { __unreadable: raw }
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return void res.end()
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers })
  res.end(JSON.stringify(body))
}

export function sendHtml(
  res: ServerResponse,
  status: number,
  html: string,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    ...headers,
  })
  res.end(html)
}

export function redirectTo(
  res: ServerResponse,
  location: string,
  headers: Record<string, string | string[]> = {},
) {
  res.writeHead(302, { location, 'cache-control': 'no-store', ...headers })
  res.end()
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

export interface OfficialServerOptions {
  name: string
  router: Router
  port: number
  host?: string
  /** Called before routing (a due webhook, the clock): may answer itself by throwing an ApiError. */
  before?: (req: ApiRequest) => void
  /** Not found, in the platform's words. */
  notFound: (req: ApiRequest) => ApiError
  /** After every answer: its status and the ApiError it answered, if any (the call log). */
  after?: (req: ApiRequest, status: number, error: ApiError | null) => void
}

export function startOfficialServer(options: OfficialServerOptions): Server {
  const host = options.host ?? '127.0.0.1'
  const server = createServer((raw, res) => {
    void (async () => {
      const url = new URL(raw.url ?? '/', `http://${raw.headers.host ?? host}`)
      let req: ApiRequest | undefined
      try {
        const body = await readRaw(raw)
        req = {
          method: raw.method ?? 'GET',
          url,
          headers: raw.headers,
          cookies: parseCookies(raw.headers.cookie),
          params: {},
          raw: body,
          body: parseBody(body, raw.headers['content-type'] ?? ''),
          res,
        }
        options.before?.(req)
        const found = options.router.match(req.method, url.pathname)
        if (!found) throw options.notFound(req)
        req.params = found.params
        await (found.handler as unknown as ApiHandler)(req)
        options.after?.(req, res.statusCode, null)
      } catch (error) {
        if (res.headersSent || res.destroyed) return void res.end()
        if (error instanceof ApiError) {
          sendJson(res, error.status, error.body, error.headers)
          if (req) options.after?.(req, error.status, error)
          return
        }
        console.error(`[${options.name}]`, error)
        sendJson(res, 500, { error: 'Internal sandbox error' })
      }
    })()
  })
  server.listen(options.port, host, () =>
    console.log(`${options.name} sandbox listening on http://${host}:${options.port}`),
  )
  return server
}

/** Registers a handler that takes the combined request (the shared Router's handler type is for the social sandboxes). */
export function route(router: Router, method: string, path: string, handler: ApiHandler): void {
  router.on(method, path, handler as never)
}
