// X session cookies as users paste them: a browser extension's JSON array, `{cookies: [...]}`,
// a name → value object, a raw `a=b; c=d` header, or a Netscape cookies.txt. Parsed into the
// cookies a browser needs, with the checks that tell a user what is wrong.
// Pure TypeScript with no Deno, Node or browser dependency: the api function parses and stores
// cookies with it, and the runner imports the same file (runner/src/platforms/x/cookies.ts), so both
// agree on every format. Written for the runner's X adapter and moved here to be shared.

/** A browser cookie as sessions are saved and restored (expires in Unix seconds). */
export interface SessionCookie {
  name: string
  value: string
  domain: string
  path: string
  expires?: number
  httpOnly: boolean
  secure: boolean
  sameSite?: 'Strict' | 'Lax' | 'None'
}

/** A cookie ready for the browser (expires in Unix seconds; absent for a session cookie). */
export type XCookie = SessionCookie

export interface ParsedXCookies {
  cookies: XCookie[]
  authToken: string
  csrfToken: string
  /** From `twid` (u%3D<id>), when present. */
  userId: string | null
}

export type CookieParseResult = { ok: true; value: ParsedXCookies } | { ok: false; error: string }

export const X_COOKIE_DOMAIN = '.x.com'

const SAME_SITE: Record<string, XCookie['sameSite'] | undefined> = {
  no_restriction: 'None',
  none: 'None',
  lax: 'Lax',
  strict: 'Strict',
  unspecified: undefined,
}

interface RawCookie {
  name: string
  value: string
  domain?: string
  path?: string
  expires?: number
  httpOnly?: boolean
  secure?: boolean
  sameSite?: XCookie['sameSite']
}

class CookieFormatError extends Error {}

/** Parses pasted cookies (text or already-parsed JSON) and checks they make an X session. */
export function parseXCookies(input: unknown, options: { now?: number } = {}): CookieParseResult {
  try {
    const raw = toRawCookies(input)
    return check(raw, options.now ?? Date.now())
  } catch (error) {
    if (error instanceof CookieFormatError) return { ok: false, error: error.message }
    throw error
  }
}

function toRawCookies(input: unknown): RawCookie[] {
  if (typeof input === 'string') {
    const text = input.trim()
    if (!text) throw new CookieFormatError('Cookies are empty.')
    if (text.startsWith('[') || text.startsWith('{')) {
      let parsed: unknown
      try {
        parsed = JSON.parse(text)
      } catch {
        throw new CookieFormatError(
          'Cookies look like JSON but do not parse: check that the whole export was pasted.',
        )
      }
      return toRawCookies(parsed)
    }
    if (text.includes('\t')) return fromNetscape(text)
    return fromHeader(text)
  }
  if (Array.isArray(input))
    return input.map(fromExtensionEntry).filter((c): c is RawCookie => c !== undefined)
  if (input && typeof input === 'object') {
    const object = input as Record<string, unknown>
    if (Array.isArray(object.cookies)) return toRawCookies(object.cookies)
    const entries = Object.entries(object)
    if (entries.length > 0 && entries.every(([, v]) => typeof v === 'string'))
      return entries.map(([name, value]) => ({ name, value: value as string }))
  }
  throw new CookieFormatError(
    'Cookies must be a JSON array exported from x.com (or {"cookies": [...]}, or a "name=value; ..." header).',
  )
}

function fromExtensionEntry(entry: unknown, index: number): RawCookie | undefined {
  if (!entry || typeof entry !== 'object')
    throw new CookieFormatError(`Cookie ${index + 1} is not an object.`)
  const c = entry as Record<string, unknown>
  if (typeof c.name !== 'string' || typeof c.value !== 'string')
    throw new CookieFormatError(`Cookie ${index + 1} needs a text "name" and "value".`)
  const domain = typeof c.domain === 'string' ? c.domain : undefined
  if (domain && !isXDomain(domain)) return undefined // other sites' cookies in the same export
  const expiry =
    typeof c.expirationDate === 'number'
      ? c.expirationDate
      : typeof c.expires === 'number'
        ? c.expires
        : undefined
  const sameSiteText = typeof c.sameSite === 'string' ? c.sameSite.toLowerCase() : 'unspecified'
  if (!(sameSiteText in SAME_SITE))
    throw new CookieFormatError(`Cookie "${c.name}" has an unknown sameSite "${c.sameSite}".`)
  return {
    name: c.name,
    value: c.value,
    domain,
    path: typeof c.path === 'string' ? c.path : undefined,
    expires: c.session === true || expiry === undefined || expiry <= 0 ? undefined : Math.floor(expiry),
    httpOnly: typeof c.httpOnly === 'boolean' ? c.httpOnly : undefined,
    secure: typeof c.secure === 'boolean' ? c.secure : undefined,
    sameSite: SAME_SITE[sameSiteText],
  }
}

function fromHeader(text: string): RawCookie[] {
  const header = text.replace(/^cookie:\s*/i, '')
  const cookies: RawCookie[] = []
  for (const part of header.split(';')) {
    const trimmed = part.trim()
    if (!trimmed) continue
    const eq = trimmed.indexOf('=')
    if (eq < 1) throw new CookieFormatError(`"${trimmed.slice(0, 30)}" is not a name=value pair.`)
    cookies.push({ name: trimmed.slice(0, eq).trim(), value: trimmed.slice(eq + 1).trim() })
  }
  return cookies
}

/** Netscape cookies.txt: domain, include-subdomains, path, secure, expiry, name, value (tab-separated). */
function fromNetscape(text: string): RawCookie[] {
  const cookies: RawCookie[] = []
  for (const line of text.split(/\r?\n/)) {
    const httpOnly = line.startsWith('#HttpOnly_')
    if (!line.trim() || (line.startsWith('#') && !httpOnly)) continue
    const fields = line.replace(/^#HttpOnly_/, '').split('\t')
    if (fields.length < 7) throw new CookieFormatError('A cookies.txt line needs 7 tab-separated fields.')
    const [domain = '', , path, secure, expiry, name = '', value = ''] = fields
    if (!isXDomain(domain)) continue
    const expires = Number(expiry)
    cookies.push({
      name,
      value,
      domain,
      path,
      secure: secure === 'TRUE',
      httpOnly,
      expires: Number.isFinite(expires) && expires > 0 ? expires : undefined,
    })
  }
  return cookies
}

function isXDomain(domain: string): boolean {
  const host = domain.replace(/^\./, '').toLowerCase()
  return (
    host === 'x.com' || host.endsWith('.x.com') || host === 'twitter.com' || host.endsWith('.twitter.com')
  )
}

function normaliseDomain(domain: string | undefined): string {
  if (!domain) return X_COOKIE_DOMAIN
  // cookies exported before the move to x.com still belong to the same session
  return domain.replace(/twitter\.com$/i, 'x.com').toLowerCase()
}

function check(raw: RawCookie[], now: number): CookieParseResult {
  const byName = new Map<string, XCookie>()
  for (const c of raw) {
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(c.name))
      return { ok: false, error: `"${c.name}" is not a valid cookie name.` }
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
    if (/[;\u0000-\u001f\u007f]/.test(c.value))
      return { ok: false, error: `The value of "${c.name}" has characters a cookie cannot hold.` }
    const domain = normaliseDomain(c.domain)
    const existing = byName.get(c.name)
    // one cookie per name: prefer the x.com copy over a twitter.com one
    if (existing && c.domain && /twitter\.com$/i.test(c.domain)) continue
    byName.set(c.name, {
      name: c.name,
      value: c.value.replace(/^"(.*)"$/, '$1'),
      domain,
      path: c.path || '/',
      ...(c.expires !== undefined ? { expires: c.expires } : {}),
      httpOnly: c.httpOnly ?? c.name === 'auth_token',
      secure: c.secure ?? true,
      ...(c.sameSite ? { sameSite: c.sameSite } : {}),
    })
  }
  const auth = byName.get('auth_token')
  const ct0 = byName.get('ct0')
  if (!auth || !ct0) {
    const missing = [!auth && 'auth_token', !ct0 && 'ct0'].filter(Boolean).join(' and ')
    return {
      ok: false,
      error: `Cookies must include auth_token and ct0 (${missing} missing; ct0 alone is not a session). Export them while signed in to x.com.`,
    }
  }
  if (!/^[0-9a-f]{40}$/i.test(auth.value))
    return { ok: false, error: 'auth_token does not look like an X session token (40 hex characters).' }
  if (!/^[0-9a-f]{32,160}$/i.test(ct0.value))
    return { ok: false, error: 'ct0 does not look like an X CSRF token (32 to 160 hex characters).' }
  for (const c of [auth, ct0]) {
    if (c.expires !== undefined && c.expires * 1000 < now)
      return {
        ok: false,
        error: `${c.name} expired on ${new Date(c.expires * 1000).toISOString().slice(0, 10)}: sign in to x.com again and export fresh cookies.`,
      }
  }
  const twid = byName.get('twid')
  const userId = twid ? (/u=(\d+)/.exec(safeDecode(twid.value))?.[1] ?? null) : null
  return {
    ok: true,
    value: { cookies: [...byName.values()], authToken: auth.value, csrfToken: ct0.value, userId },
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

/** The Cookie header for HTTP calls to X. */
export function cookieHeader(parsed: ParsedXCookies): string {
  return parsed.cookies.map((c) => `${c.name}=${c.value}`).join('; ')
}
