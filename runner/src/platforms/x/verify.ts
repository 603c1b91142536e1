// Checks X cookies over HTTP, without a browser: verify_credentials with the cookie header,
// x-csrf-token and the web bearer. Uses only fetch, so a Deno edge function can use it too.
import { cookieHeader, type ParsedXCookies } from './cookies.ts'
import { X_API, X_BASE_URL, xApiHeaders } from './selectors.ts'
import { xSignalFromResponse } from './signals.ts'

export type VerifyResult =
  | { status: 'valid'; user: { id: string; username: string; name: string } }
  | { status: 'expired' | 'locked' | 'rate_limited' | 'error'; message: string; code?: string }

export interface VerifyOptions {
  baseUrl?: string
  /** A fetch that goes through the account's proxy, when it has one. */
  fetch?: typeof fetch
  timeoutMs?: number
}

export async function verifyXCookies(
  parsed: ParsedXCookies,
  options: VerifyOptions = {},
): Promise<VerifyResult> {
  const base = options.baseUrl ?? X_BASE_URL
  const doFetch = options.fetch ?? fetch
  let response: Response
  try {
    response = await doFetch(new URL(X_API.verifyCredentials, base), {
      headers: { ...xApiHeaders(parsed.csrfToken), cookie: cookieHeader(parsed) },
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    })
  } catch (error) {
    return {
      status: 'error',
      message: `Could not reach X: ${error instanceof Error ? error.message : String(error)}`,
    }
  }
  const body: unknown = await response.json().catch(() => null)
  if (response.ok) {
    const user = body as { id_str?: string; screen_name?: string; name?: string } | null
    if (user?.id_str && user.screen_name)
      return { status: 'valid', user: { id: user.id_str, username: user.screen_name, name: user.name ?? '' } }
    return { status: 'error', message: 'X answered without a user.' }
  }
  const signal = xSignalFromResponse(response.status, body)
  if (signal?.kind === 'unauthenticated')
    return {
      status: 'expired',
      code: signal.code,
      message: 'The cookies are no longer signed in: export fresh ones.',
    }
  if (signal?.kind === 'locked') return { status: 'locked', code: signal.code, message: signal.message }
  if (signal?.kind === 'rate_limit')
    return { status: 'rate_limited', code: signal.code, message: signal.message }
  return { status: 'error', code: signal?.code, message: `X answered HTTP ${response.status}.` }
}
