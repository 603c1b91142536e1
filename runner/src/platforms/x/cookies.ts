// X session cookies as users paste them. The parser is shared with the edge functions (the api
// function parses and stores cookies with it; the runner uses what it stored), so it lives in one
// place, supabase/functions/_shared/domain/x-cookies.ts, pure TypeScript that both runtimes import. What
// only a browser needs (re-homing cookies to a sandbox host) stays here.

import type { XCookie } from '@reachflow/domain'

export {
  type CookieParseResult,
  cookieHeader,
  type ParsedXCookies,
  parseXCookies,
  X_COOKIE_DOMAIN,
  type XCookie,
} from '@reachflow/domain'

/**
 * The cookies as the browser must get them for a given base URL: unchanged for x.com; for a
 * sandbox (another host, perhaps plain http) re-homed to that host and not `Secure`.
 */
export function cookiesForSite(cookies: XCookie[], baseUrl: string): XCookie[] {
  const url = new URL(baseUrl)
  const host = url.hostname.toLowerCase()
  if (host === 'x.com' || host.endsWith('.x.com')) return cookies
  const secure = url.protocol === 'https:'
  return cookies.map((c) => ({
    ...c,
    domain: host,
    secure: secure && c.secure,
    ...(c.sameSite === 'None' && !secure ? { sameSite: 'Lax' as const } : {}),
  }))
}
