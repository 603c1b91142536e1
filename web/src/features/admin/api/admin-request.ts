// product.md §8 "Admin request": every admin call goes through here, with the session's bearer token,
// and fails with exactly the product's texts: no token, 401, 403, else the server's error or message
// field, 'Request failed', or 'HTTP {status}: {text}' when the body cannot be read. A call names
// its route (`adminRequest('GET /users/:id', { params: { id } })`) and gets the answer that route's
// entry in @reachflow/domain's AdminEndpoints names: no caller picks a type of its own.
import {
  type AdminAnswer,
  type AdminEndpoints,
  type AdminRoute,
  type CallArgs,
  requestLine,
} from '@reachflow/domain'
import { env } from '@/config/env'
import { supabase } from '@/lib/supabase'

export const ADMIN_REQUEST_ERRORS = {
  noToken: 'Authentication required - please login again',
  unauthorized: 'Authentication failed - please login again',
  forbidden: 'Access denied - admin privileges required',
  fallback: 'Request failed',
} as const

export class AdminRequestError extends Error {
  override name = 'AdminRequestError'
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message)
  }
}

/** Where admin requests go and with which credentials; the app uses `adminRequest` below. */
export interface AdminEndpoint {
  baseUrl: string
  anonKey: string
  /** The signed-in session's access token, or null without one. */
  accessToken: () => Promise<string | null>
  /** A request still unanswered after this long fails with 'Request failed'. */
  timeoutMs?: number
}

const DEFAULT_TIMEOUT_MS = 30_000

/** The route's query (AdminEndpoints names its keys) goes in the URL; undefined values are left out. */
function adminUrl(baseUrl: string, path: string, query: unknown): string {
  const url = new URL(`${baseUrl}/functions/v1/admin/${path.replace(/^\//, '')}`)
  for (const [key, value] of Object.entries(typeof query === 'object' && query !== null ? query : {})) {
    if (value !== undefined) url.searchParams.set(key, String(value))
  }
  return url.toString()
}

/** The text of a failed answer: the body's error or message field, else 'Request failed'. */
async function failureText(response: Response): Promise<string> {
  let text: string
  try {
    text = await response.text()
  } catch {
    return `HTTP ${response.status}: ${response.statusText}`
  }
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown }
    if (typeof body.error === 'string' && body.error) return body.error
    if (typeof body.message === 'string' && body.message) return body.message
    return ADMIN_REQUEST_ERRORS.fallback
  } catch {
    return `HTTP ${response.status}: ${response.statusText || text.slice(0, 200)}`
  }
}

/** Admin calls against `endpoint`; exported so tests can point it at a server of their own. */
export function createAdminRequest(endpoint: AdminEndpoint) {
  return async function request<K extends AdminRoute>(
    route: K,
    ...[options]: CallArgs<AdminEndpoints, K>
  ): Promise<AdminAnswer<K>> {
    const { method, path } = requestLine(route, options?.params)
    const body: unknown = options?.body
    const token = await endpoint.accessToken()
    if (!token) throw new AdminRequestError(ADMIN_REQUEST_ERRORS.noToken, null)
    let response: Response
    try {
      response = await fetch(adminUrl(endpoint.baseUrl, path, options?.query), {
        method,
        headers: {
          Authorization: `Bearer ${token}`,
          apikey: endpoint.anonKey,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        // A hung admin function must not leave the dashboard spinning forever.
        signal: AbortSignal.timeout(endpoint.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      })
    } catch (error) {
      // Checked by name: the DOMException class differs between realms (browser, Node, jsdom).
      if (error instanceof Error && error.name === 'TimeoutError')
        throw new AdminRequestError(ADMIN_REQUEST_ERRORS.fallback, null)
      throw error
    }
    if (response.status === 401) throw new AdminRequestError(ADMIN_REQUEST_ERRORS.unauthorized, 401)
    if (response.status === 403) throw new AdminRequestError(ADMIN_REQUEST_ERRORS.forbidden, 403)
    if (!response.ok) throw new AdminRequestError(await failureText(response), response.status)
    try {
      // The function builds this answer with `satisfies` the route's type; tests/function-answers.test.ts
      // checks the real answers against it.
      return (await response.json()) as AdminAnswer<K>
    } catch {
      throw new AdminRequestError(`HTTP ${response.status}: ${response.statusText}`, response.status)
    }
  }
}

/** Every admin call of the app: the configured gateway, the current session's token. */
export const adminRequest = createAdminRequest({
  baseUrl: env.supabaseUrl,
  anonKey: env.supabaseAnonKey,
  accessToken: async () => {
    const { data } = await supabase.auth.getSession()
    return data.session?.access_token ?? null
  },
})
