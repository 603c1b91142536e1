// Checks X session cookies over HTTP, without a browser, as the x.com web app checks its own session:
// GET verify_credentials with the cookie header, `x-csrf-token: <ct0>` and the public web bearer.
// The base URL is X_BASE_URL (https://x.com in production, the X sandbox locally). The endpoint, the
// bearer and the error codes mirror the runner's X adapter (runner/src/platforms/x/selectors.ts).
import { cookieHeader, type ParsedXCookies } from './x-cookies.ts'

/** The public bearer token the x.com web client sends with its internal API calls. */
export const X_WEB_BEARER =
  'AAAAAAAAAAAAAAAAAAAAANRILgAAAAAAnNwIzUejRCOuH5E6I8xnZz4puTs%3D1Zv7ttfk8LF81IUq16cHjhLTvJu4FA33AGWWjCpTnA'

export const X_VERIFY_CREDENTIALS_PATH = '/i/api/1.1/account/verify_credentials.json?skip_status=true'

export type XVerifyResult =
  | { status: 'valid'; user: { id: string; username: string; name: string } }
  | { status: 'expired' | 'locked' | 'rate_limited' | 'unreachable' | 'error'; message: string }

export interface XVerifyOptions {
  baseUrl: string
  fetch?: typeof fetch
  timeoutMs?: number
}

// X's error codes on this endpoint (platforms.md): 32 could not authenticate, 326 locked, 88 rate limit.
const EXPIRED = 'These cookies are no longer signed in to X. Sign in to x.com again and export fresh cookies.'
const LOCKED = 'X has locked this account. Unlock it on x.com, then export fresh cookies.'
const RATE_LIMITED = 'X is rate limiting this account right now. Try again in a few minutes.'

function errorCodes(body: unknown): string[] {
  const errors = (body as { errors?: { code?: unknown }[] } | null)?.errors
  return Array.isArray(errors) ? errors.map((e) => String(e?.code)) : []
}

export async function verifyXCookies(
  parsed: ParsedXCookies,
  options: XVerifyOptions,
): Promise<XVerifyResult> {
  const doFetch = options.fetch ?? fetch
  let response: Response
  try {
    response = await doFetch(new URL(X_VERIFY_CREDENTIALS_PATH, options.baseUrl), {
      headers: {
        authorization: `Bearer ${X_WEB_BEARER}`,
        'x-csrf-token': parsed.csrfToken,
        'x-twitter-auth-type': 'OAuth2Session',
        'x-twitter-active-user': 'yes',
        'x-twitter-client-language': 'en',
        cookie: cookieHeader(parsed),
      },
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    })
  } catch {
    return {
      status: 'unreachable',
      message: 'X could not be reached to check the cookies. Please try again.',
    }
  }
  const body: unknown = await response.json().catch(() => null)
  if (response.ok) {
    const user = body as { id_str?: unknown; screen_name?: unknown; name?: unknown } | null
    if (typeof user?.id_str === 'string' && typeof user.screen_name === 'string') {
      return {
        status: 'valid',
        user: {
          id: user.id_str,
          username: user.screen_name,
          name: typeof user.name === 'string' ? user.name : '',
        },
      }
    }
    return { status: 'error', message: 'X answered without an account.' }
  }
  const codes = errorCodes(body)
  // A redirect is X sending a signed-out browser to /i/flow/login, or a locked one to /account/access.
  const location = response.headers.get('location') ?? ''
  if (codes.includes('326') || location.includes('/account/access'))
    return { status: 'locked', message: LOCKED }
  if (codes.includes('88') || response.status === 429)
    return { status: 'rate_limited', message: RATE_LIMITED }
  if (
    codes.includes('32') ||
    response.status === 401 ||
    response.status === 403 ||
    location.includes('/login')
  ) {
    return { status: 'expired', message: EXPIRED }
  }
  return { status: 'error', message: `X answered HTTP ${response.status} when checking the cookies.` }
}
