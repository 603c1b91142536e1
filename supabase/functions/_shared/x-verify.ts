// What can honestly be known about X session cookies over HTTP, without a browser. Since July 2026
// X answers 404 to cookie sessions on verify_credentials.json and settings.json, so no HTTP call
// names the account any more. A plain request for /home with the cookies still shows whether X
// signs them out (a redirect to the login flow) or holds the account (a redirect to /account/access);
// a page served is NOT proof of a session (x.com serves its app shell and the app decides), so the
// answer is only "not rejected": the runner's account test, which loads /home in a browser and opens
// X Chat, is the real check. The paths mirror the runner's X facts (runner/src/platforms/x/facts.ts,
// a runner test keeps them equal). The base URL is X_BASE_URL (https://x.com in production).
import { cookieHeader, type ParsedXCookies } from '@reachflow/domain'

export const X_CHECK_PATHS = {
  home: '/home',
  signedOut: ['/i/flow/login', '/login', '/i/flow/single_sign_on'],
  locked: ['/account/access'],
}

export type XVerifyResult =
  /** X served the page without signing the cookies out: not rejected, not yet proven. */
  | { status: 'not_rejected'; message: string }
  | { status: 'expired' | 'locked' | 'rate_limited' | 'unreachable' | 'error'; message: string }

export interface XVerifyOptions {
  baseUrl: string
  fetch?: typeof fetch
  timeoutMs?: number
  /** Where X's home page is and where it sends signed-out and locked sessions. */
  paths?: typeof X_CHECK_PATHS
}

const EXPIRED = 'These cookies are no longer signed in to X. Sign in to x.com again and export fresh cookies.'
const LOCKED = 'X has locked this account. Unlock it on x.com, then export fresh cookies.'
const RATE_LIMITED = 'X is rate limiting this account right now. Try again in a few minutes.'
const NOT_REJECTED =
  'X did not reject these cookies. Only signing in with them in a browser proves they work: Reachflow does that, and opens X Chat, when the account is added or tested.'

const under = (prefixes: string[], path: string) =>
  prefixes.some((p) => path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`))

export async function verifyXCookies(
  parsed: ParsedXCookies,
  options: XVerifyOptions,
): Promise<XVerifyResult> {
  const paths = options.paths ?? X_CHECK_PATHS
  const doFetch = options.fetch ?? fetch
  let response: Response
  try {
    response = await doFetch(new URL(paths.home, options.baseUrl), {
      headers: { cookie: cookieHeader(parsed), accept: 'text/html' },
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    })
    await response.body?.cancel()
  } catch {
    return {
      status: 'unreachable',
      message: 'X could not be reached to check the cookies. Please try again.',
    }
  }
  // X itself failing (500, 503 "over capacity", a proxy's 502) says nothing about the cookies: the
  // check could not be made, exactly as if X were unreachable, so no account is marked broken for it.
  if (response.status >= 500) {
    return {
      status: 'unreachable',
      message: `X could not answer (HTTP ${response.status}) when checking the cookies. Please try again in a few minutes.`,
    }
  }
  if (response.status === 429) return { status: 'rate_limited', message: RATE_LIMITED }
  if (response.status >= 300 && response.status < 400) {
    const location = response.headers.get('location') ?? ''
    const path = new URL(location, options.baseUrl).pathname
    if (under(paths.locked, path)) return { status: 'locked', message: LOCKED }
    if (under(paths.signedOut, path)) return { status: 'expired', message: EXPIRED }
    return { status: 'error', message: `X sent the cookies' page load elsewhere (${path}).` }
  }
  if (response.ok) return { status: 'not_rejected', message: NOT_REJECTED }
  return { status: 'error', message: `X answered HTTP ${response.status} when checking the cookies.` }
}
