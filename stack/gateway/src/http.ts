// Request/response plumbing every gateway service shares: body limits, JSON replies, CORS, and the
// caller's identity from apikey + Authorization as Supabase's API gateway resolves it.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { JWTPayload } from 'jose'
import type pg from 'pg'
import type { StackConfig } from '../../src/config.ts'
import { JwtError, type Keys } from './keys.ts'

export const MAX_BODY_BYTES = 10 * 1024 * 1024
/** How much of an upload without Content-Length past the limit is read and dropped before its 413. */
const OVERSIZE_DRAIN_BYTES = 16 * 1024 * 1024
/** How long a connection cut off for sending far too much lives after its 413 was sent. */
const OVERSIZE_LINGER_MS = 2_000

export const CORS_ALLOW_HEADERS =
  'authorization, x-client-info, apikey, content-type, prefer, accept-profile, content-profile, x-upsert, x-metadata, x-supabase-api-version, cache-control, range, x-retry-count'
export const CORS_EXPOSE_HEADERS = 'Content-Range, X-Supabase-Api-Version'

export interface GatewayContext {
  config: StackConfig
  keys: Keys
  /** Connects as `authenticator`; requests switch to anon/authenticated/service_role per transaction. */
  apiPool: pg.Pool
  /** Connects as `postgres`; for the auth and storage services' own bookkeeping only. */
  adminPool: pg.Pool
  log(level: 'info' | 'warn' | 'error', message: string, meta?: Record<string, unknown>): void
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body === 'object' && body && 'message' in body ? String(body.message) : `HTTP ${status}`)
  }
}

export interface GatewayRequest {
  req: IncomingMessage
  res: ServerResponse
  method: string
  url: URL
  /** The path after the service prefix: `/rest/v1/users` → `/users`. */
  path: string
  /** Reads the whole body once (cached); over `limit` bytes → HttpError 413. */
  body(limit?: number): Promise<Buffer>
  /** The body as JSON; malformed → HttpError 400 in the service's own error format via `onBadJson`. */
  json<T = unknown>(onBadJson: (message: string) => HttpError): Promise<T>
}

const payloadTooLarge = () =>
  new HttpError(413, { code: 'PGRST413', message: 'Payload Too Large', details: null, hint: null })

/**
 * A class rather than an object of closures: a GET never reads its body, and methods on the
 * prototype cost nothing per request (tsx also wraps every named closure to keep its name).
 */
class IncomingRequest implements GatewayRequest {
  readonly method: string
  readonly path: string
  private cached: Promise<Buffer> | undefined

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly url: URL,
    prefix: string,
  ) {
    this.method = (req.method ?? 'GET').toUpperCase()
    this.path = url.pathname.slice(prefix.length) || '/'
  }

  body(limit = MAX_BODY_BYTES): Promise<Buffer> {
    this.cached ??= readBody(this.req, this.res, limit)
    return this.cached
  }

  async json<T>(onBadJson: (message: string) => HttpError): Promise<T> {
    const raw = (await this.body()).toString('utf8')
    if (raw.trim() === '') return undefined as T
    try {
      return JSON.parse(raw) as T
    } catch (error) {
      throw onBadJson((error as Error).message)
    }
  }
}

function readBody(req: IncomingMessage, res: ServerResponse, limit: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0)
    if (declared > limit) {
      reject(payloadTooLarge())
      req.resume()
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= limit) {
        chunks.push(chunk)
        return
      }
      chunks.length = 0
      if (size > limit + OVERSIZE_DRAIN_BYTES && !req.isPaused()) {
        // A client that keeps sending far past the limit is answered now and cut off shortly after.
        req.pause()
        res.shouldKeepAlive = false
        res.once('finish', () => setTimeout(() => req.destroy(), OVERSIZE_LINGER_MS).unref())
        reject(payloadTooLarge())
      }
    })
    // An upload a little over the limit is read to its end and dropped before the 413 goes out: a
    // client still writing when the answer (and the connection's close) arrived saw only EPIPE.
    req.on('end', () => (size > limit ? reject(payloadTooLarge()) : resolve(Buffer.concat(chunks))))
    req.on('error', reject)
  })
}

export function makeRequest(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  prefix: string,
): GatewayRequest {
  return new IncomingRequest(req, res, url, prefix)
}

/**
 * CORS headers. Browsers read Allow-Methods, Allow-Headers and Max-Age only on a preflight (OPTIONS)
 * answer, so the other answers carry just what they read there: origin, credentials and the
 * exposed headers (fewer bytes for every API response to write and parse).
 */
export function setCors(res: ServerResponse, req: IncomingMessage): void {
  res.setHeader('Access-Control-Allow-Origin', req.headers.origin ?? '*')
  res.setHeader('Vary', 'Origin')
  res.setHeader('Access-Control-Allow-Credentials', 'true')
  res.setHeader('Access-Control-Expose-Headers', CORS_EXPOSE_HEADERS)
  if (req.method !== 'OPTIONS') return
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS, HEAD')
  res.setHeader('Access-Control-Allow-Headers', CORS_ALLOW_HEADERS)
  res.setHeader('Access-Control-Max-Age', '86400')
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const payload = body === undefined ? '' : JSON.stringify(body)
  res.writeHead(status, {
    ...(payload ? { 'Content-Type': 'application/json; charset=utf-8' } : {}),
    ...headers,
  })
  res.end(payload)
}

export interface Caller {
  /** `anon`, `authenticated` or `service_role` — the Postgres role requests run as. */
  role: string
  claims: JWTPayload
  /** The raw token used (user access token or API key JWT). */
  token: string
}

/**
 * Who is calling, from `Authorization: Bearer` (falling back to `apikey`), with opaque sb_ keys
 * mapped to their JWTs. Throws JwtError for a bad token; the service maps it to its error format.
 */
export async function resolveCaller(req: IncomingMessage, keys: Keys): Promise<Caller> {
  const header = req.headers.authorization
  const bearer = header?.toLowerCase().startsWith('bearer ') ? header.slice(7).trim() : undefined
  const apikey = typeof req.headers.apikey === 'string' ? req.headers.apikey : undefined
  const raw = bearer || apikey
  if (!raw) throw new JwtError('No API key found in request')
  const token = keys.resolveApiKey(raw)
  const claims = await keys.verify(token)
  const role = typeof claims.role === 'string' ? claims.role : 'anon'
  if (!['anon', 'authenticated', 'service_role'].includes(role))
    throw new JwtError(`role "${role}" is not allowed`)
  return { role, claims, token }
}
