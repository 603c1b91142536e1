// The few HTTP helpers both social sandboxes share: a tiny router, body and cookie parsing, and
// JSON/HTML/redirect responses. node:http only, no framework.
import type { IncomingMessage, ServerResponse } from 'node:http'

export interface Request {
  method: string
  url: URL
  headers: IncomingMessage['headers']
  cookies: Record<string, string>
  params: Record<string, string>
  raw: IncomingMessage
  /** The parsed body: JSON or form fields; empty for GET. */
  body: Record<string, unknown>
}

export type Handler = (req: Request, res: ServerResponse) => void | Promise<void>

interface Route {
  method: string
  pattern: RegExp
  keys: string[]
  handler: Handler
}

export class Router {
  #routes: Route[] = []

  /** `path` may hold `:name` segments (one path segment each) and end in `*` (any rest). */
  on(method: string, path: string, handler: Handler): this {
    const keys: string[] = []
    const source = path
      .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
      .replace(/:([a-zA-Z_]+)/g, (_, key: string) => {
        keys.push(key)
        return '([^/]+)'
      })
      .replace(/\*$/, '(.*)')
    if (path.endsWith('*')) keys.push('rest')
    this.#routes.push({ method, pattern: new RegExp(`^${source}$`), keys, handler })
    return this
  }

  match(method: string, pathname: string): { handler: Handler; params: Record<string, string> } | undefined {
    for (const route of this.#routes) {
      // a HEAD is answered as its GET, as every real web server does (node:http sends no body)
      const sameMethod = route.method === method || (method === 'HEAD' && route.method === 'GET')
      if (!sameMethod && route.method !== '*') continue
      const found = route.pattern.exec(pathname)
      if (!found) continue
      const params: Record<string, string> = {}
      route.keys.forEach((key, i) => {
        params[key] = decodeURIComponent(found[i + 1] ?? '')
      })
      return { handler: route.handler, params }
    }
    return undefined
  }
}

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=')
    if (eq < 1) continue
    const name = part.slice(0, eq).trim()
    let value = part.slice(eq + 1).trim()
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1)
    out[name] = value
  }
  return out
}

const MAX_BODY = 1_000_000

export async function readBody(raw: IncomingMessage): Promise<Record<string, unknown>> {
  if (raw.method === 'GET' || raw.method === 'HEAD') return {}
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of raw) {
    size += (chunk as Buffer).length
    if (size > MAX_BODY) throw new HttpError(413, 'Body too large')
    chunks.push(chunk as Buffer)
  }
  const text = Buffer.concat(chunks).toString('utf8')
  if (!text) return {}
  const type = raw.headers['content-type'] ?? ''
  if (type.includes('application/x-www-form-urlencoded')) {
    return Object.fromEntries(new URLSearchParams(text))
  }
  try {
    const parsed: unknown = JSON.parse(text)
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>
    return { value: parsed }
  } catch {
    throw new HttpError(400, 'Body must be JSON or a form')
  }
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body?: unknown,
  ) {
    super(message)
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string | string[]> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
  res.end(JSON.stringify(body))
}

export function sendHtml(
  res: ServerResponse,
  status: number,
  html: string,
  headers: Record<string, string | string[]> = {},
): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    ...headers,
  })
  res.end(html)
}

export function redirect(
  res: ServerResponse,
  location: string,
  headers: Record<string, string | string[]> = {},
): void {
  res.writeHead(302, { location, 'cache-control': 'no-store', ...headers })
  res.end()
}

export interface CookieOptions {
  maxAgeSeconds?: number
  httpOnly?: boolean
  sameSite?: 'Lax' | 'Strict' | 'None'
}

export function serializeCookie(name: string, value: string, options: CookieOptions = {}): string {
  const parts = [`${name}=${value}`, 'Path=/']
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${options.maxAgeSeconds}`)
  if (options.httpOnly) parts.push('HttpOnly')
  parts.push(`SameSite=${options.sameSite ?? 'Lax'}`)
  return parts.join('; ')
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

/** Reads a string field of a parsed body, or throws a 400 naming the field. */
export function stringField(
  body: Record<string, unknown>,
  name: string,
  required = true,
): string | undefined {
  const value = body[name]
  if (value === undefined || value === null || value === '') {
    if (required) throw new HttpError(400, `"${name}" is required`)
    return undefined
  }
  if (typeof value !== 'string') throw new HttpError(400, `"${name}" must be a string`)
  return value
}
