// A small method + path router for functions with sub-paths. A function receives the full URL
// (`/functions/v1/api/social-accounts/123/test` through the gateway, `/api/social-accounts/123/test`
// on the edge runtime), so routing uses the part after the function's name. Patterns name
// parameters with `:` (`/social-accounts/:id/test`); literal segments win over parameters, so
// `/social-accounts/platforms` is never read as an id.
import { HttpError, notFound } from './errors.ts'

export type RouteParams = Record<string, string>

export interface RouteContext {
  params: RouteParams
  url: URL
  /** The path after the function name, always starting with `/`. */
  path: string
}

export type RouteHandler = (req: Request, ctx: RouteContext) => Promise<Response> | Response

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

interface Route {
  method: Method
  segments: string[]
  handler: RouteHandler
}

/** `/functions/v1/api/x/1` or `/api/x/1` → `/x/1`; the function's own root is `/`. */
export function routePath(url: URL | string, functionName: string): string {
  const pathname = (typeof url === 'string' ? new URL(url) : url).pathname
  const parts = pathname.split('/').filter(Boolean)
  const at = parts.indexOf(functionName)
  const rest = at >= 0 ? parts.slice(at + 1) : parts
  return `/${rest.join('/')}`
}

const split = (path: string) => path.split('/').filter(Boolean)

/** Params when `route` matches, else null. */
function match(route: Route, segments: string[]): RouteParams | null {
  if (route.segments.length !== segments.length) return null
  const params: RouteParams = {}
  for (let i = 0; i < segments.length; i++) {
    const pattern = route.segments[i] ?? ''
    const segment = segments[i] ?? ''
    if (pattern.startsWith(':')) {
      try {
        params[pattern.slice(1)] = decodeURIComponent(segment)
      } catch {
        return null
      }
    } else if (pattern !== segment) {
      return null
    }
  }
  return params
}

/** Earlier literal segments beat parameters: compares two matching routes left to right. */
function moreSpecific(a: Route, b: Route): boolean {
  for (let i = 0; i < a.segments.length; i++) {
    const aParam = a.segments[i]?.startsWith(':') ?? false
    const bParam = b.segments[i]?.startsWith(':') ?? false
    if (aParam !== bParam) return !aParam
  }
  return false
}

export class Router {
  private readonly routes: Route[] = []

  constructor(readonly functionName: string) {}

  on(method: Method, pattern: string, handler: RouteHandler): this {
    this.routes.push({ method, segments: split(pattern), handler })
    return this
  }

  get(pattern: string, handler: RouteHandler): this {
    return this.on('GET', pattern, handler)
  }
  post(pattern: string, handler: RouteHandler): this {
    return this.on('POST', pattern, handler)
  }
  put(pattern: string, handler: RouteHandler): this {
    return this.on('PUT', pattern, handler)
  }
  patch(pattern: string, handler: RouteHandler): this {
    return this.on('PATCH', pattern, handler)
  }
  delete(pattern: string, handler: RouteHandler): this {
    return this.on('DELETE', pattern, handler)
  }

  /** Runs the matching handler; 404 when no route has the path, 405 (with Allow) when only the method differs. */
  handle = (req: Request): Promise<Response> | Response => {
    const url = new URL(req.url)
    const path = routePath(url, this.functionName)
    const segments = split(path)
    let best: { route: Route; params: RouteParams } | undefined
    const allowed = new Set<string>()
    for (const route of this.routes) {
      const params = match(route, segments)
      if (!params) continue
      allowed.add(route.method)
      if (route.method !== req.method) continue
      if (!best || moreSpecific(route, best.route)) best = { route, params }
    }
    if (best) return best.route.handler(req, { params: best.params, url, path })
    if (allowed.size > 0) {
      throw new HttpError(405, `Method ${req.method} is not allowed on ${path}`, undefined, {
        Allow: [...allowed, 'OPTIONS'].join(', '),
      })
    }
    throw notFound(`No route for ${req.method} ${path}`)
  }
}
