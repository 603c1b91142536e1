// Spec §8 "Admin request": every admin call goes through here, with the session's bearer token,
// and fails with exactly the spec's texts: no token, 401, 403, else the server's error or message
// field, 'Request failed', or 'HTTP {status}: {text}' when the body cannot be read.
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

export interface AdminRequestOptions {
  method?: 'GET' | 'POST' | 'DELETE'
  body?: unknown
  query?: Record<string, string | number | undefined>
}

async function accessToken(): Promise<string | null> {
  const { data } = await supabase.auth.getSession()
  return data.session?.access_token ?? null
}

function adminUrl(path: string, query: AdminRequestOptions['query']): string {
  const url = new URL(`${env.supabaseUrl}/functions/v1/admin/${path.replace(/^\//, '')}`)
  for (const [key, value] of Object.entries(query ?? {})) {
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

export async function adminRequest<T>(path: string, options: AdminRequestOptions = {}): Promise<T> {
  const token = await accessToken()
  if (!token) throw new AdminRequestError(ADMIN_REQUEST_ERRORS.noToken, null)
  const response = await fetch(adminUrl(path, options.query), {
    method: options.method ?? 'GET',
    headers: {
      Authorization: `Bearer ${token}`,
      apikey: env.supabaseAnonKey,
      ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  })
  if (response.status === 401) throw new AdminRequestError(ADMIN_REQUEST_ERRORS.unauthorized, 401)
  if (response.status === 403) throw new AdminRequestError(ADMIN_REQUEST_ERRORS.forbidden, 403)
  if (!response.ok) throw new AdminRequestError(await failureText(response), response.status)
  try {
    return (await response.json()) as T
  } catch {
    throw new AdminRequestError(`HTTP ${response.status}: ${response.statusText}`, response.status)
  }
}
