// X cookie parsing (every pasted format) and the browser-free verify_credentials check against
// the X sandbox: valid, expired, locked, and what a user is told when cookies are wrong.

import { X_CHECK_PATHS } from '@reachflow/x-verify'
import { beforeAll, describe, expect, it } from 'vitest'
import { cookieHeader, cookiesForSite, parseXCookies } from '../src/platforms/x/cookies.ts'
import { X_FACTS } from '../src/platforms/x/facts.ts'
import { verifyXCookies } from '../src/platforms/x/verify.ts'
import { SandboxAdmin, sandboxUrl, type XSandboxAccount } from './helpers/sandbox.ts'

const AUTH = 'a'.repeat(40)
const CT0 = 'b'.repeat(160)
const now = Date.UTC(2026, 0, 1)
const future = now / 1000 + 86_400

function extensionCookie(name: string, value: string, extra: Record<string, unknown> = {}) {
  return {
    domain: '.x.com',
    expirationDate: future + 0.5,
    hostOnly: false,
    httpOnly: name === 'auth_token',
    name,
    path: '/',
    sameSite: 'no_restriction',
    secure: true,
    session: false,
    storeId: '0',
    value,
    ...extra,
  }
}

describe('parseXCookies', () => {
  it('reads a browser-extension JSON array and converts it for the browser', () => {
    const input = JSON.stringify([
      extensionCookie('auth_token', AUTH),
      extensionCookie('ct0', CT0, { sameSite: 'lax', httpOnly: false }),
      extensionCookie('twid', 'u%3D1234567890', { sameSite: 'unspecified' }),
      extensionCookie('other', 'x', { domain: '.example.com' }),
    ])
    const result = parseXCookies(input, { now })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.value.authToken).toBe(AUTH)
    expect(result.value.csrfToken).toBe(CT0)
    expect(result.value.userId).toBe('1234567890')
    expect(result.value.cookies.map((c) => c.name)).toEqual(['auth_token', 'ct0', 'twid'])
    const auth = result.value.cookies[0]
    expect(auth).toEqual({
      name: 'auth_token',
      value: AUTH,
      domain: '.x.com',
      path: '/',
      expires: Math.floor(future),
      httpOnly: true,
      secure: true,
      sameSite: 'None',
    })
    expect(result.value.cookies[1]?.sameSite).toBe('Lax')
    expect(result.value.cookies[2]).not.toHaveProperty('sameSite')
    expect(Object.keys(auth ?? {})).not.toContain('hostOnly')
  })

  it('reads {cookies: [...]}, a parsed array, a name→value object, a raw header and cookies.txt', () => {
    const wrapped = parseXCookies(
      { cookies: [extensionCookie('auth_token', AUTH), extensionCookie('ct0', CT0)] },
      { now },
    )
    const header = parseXCookies(`Cookie: auth_token=${AUTH}; ct0=${CT0}; twid="u=42"`, { now })
    const map = parseXCookies({ auth_token: AUTH, ct0: CT0 }, { now })
    const netscape = parseXCookies(
      `# Netscape HTTP Cookie File\n#HttpOnly_.x.com\tTRUE\t/\tTRUE\t${Math.floor(future)}\tauth_token\t${AUTH}\n.x.com\tTRUE\t/\tTRUE\t${Math.floor(future)}\tct0\t${CT0}`,
      { now },
    )
    for (const result of [wrapped, header, map, netscape]) {
      expect(result.ok, JSON.stringify(result)).toBe(true)
    }
    if (!header.ok || !netscape.ok || !map.ok) return
    expect(header.value.userId).toBe('42')
    expect(header.value.cookies.every((c) => c.domain === '.x.com')).toBe(true)
    expect(netscape.value.cookies[0]?.httpOnly).toBe(true)
    expect(cookieHeader(map.value)).toBe(`auth_token=${AUTH}; ct0=${CT0}`)
  })

  it('moves twitter.com cookies to x.com and prefers the x.com copy', () => {
    const result = parseXCookies(
      [
        extensionCookie('auth_token', AUTH, { domain: '.x.com' }),
        extensionCookie('auth_token', 'c'.repeat(40), { domain: '.twitter.com' }),
        extensionCookie('ct0', CT0, { domain: '.twitter.com' }),
      ],
      { now },
    )
    expect(result.ok && result.value.authToken).toBe(AUTH)
    expect(result.ok && result.value.cookies.map((c) => c.domain)).toEqual(['.x.com', '.x.com'])
  })

  it('explains what is wrong', () => {
    const cases: [unknown, RegExp][] = [
      ['', /empty/],
      ['[{"name": "auth_token"', /do not parse/],
      [[extensionCookie('ct0', CT0)], /auth_token missing; ct0 alone is not a session/],
      [[extensionCookie('auth_token', AUTH)], /ct0 missing/],
      [{ auth_token: 'short', ct0: CT0 }, /40 hex/],
      [{ auth_token: AUTH, ct0: 'zz' }, /CSRF token/],
      [
        [
          extensionCookie('auth_token', AUTH, { expirationDate: now / 1000 - 10 }),
          extensionCookie('ct0', CT0),
        ],
        /auth_token expired on 2025-12-31/,
      ],
      [[extensionCookie('auth_token', AUTH, { sameSite: 'weird' })], /unknown sameSite/],
      [[{ name: 'auth_token' }], /needs a text "name" and "value"/],
      [42, /JSON array exported from x.com/],
      ['auth_token', /not a name=value pair/],
      [{ auth_token: `${AUTH};x=1`, ct0: CT0 }, /characters a cookie cannot hold/],
    ]
    for (const [input, error] of cases) {
      const result = parseXCookies(input, { now })
      expect(result.ok, JSON.stringify(input).slice(0, 60)).toBe(false)
      if (!result.ok) expect(result.error).toMatch(error)
    }
  })

  it('re-homes cookies to a sandbox host and drops Secure on plain http', () => {
    const parsed = parseXCookies([extensionCookie('auth_token', AUTH), extensionCookie('ct0', CT0)], { now })
    if (!parsed.ok) throw new Error(parsed.error)
    const local = cookiesForSite(parsed.value.cookies, 'http://127.0.0.1:5000')
    expect(local.map((c) => [c.domain, c.secure, c.sameSite])).toEqual([
      ['127.0.0.1', false, 'Lax'],
      ['127.0.0.1', false, 'Lax'],
    ])
    expect(cookiesForSite(parsed.value.cookies, 'https://x.com')).toBe(parsed.value.cookies)
  })
})

describe('verifyXCookies against the X sandbox (what HTTP can honestly tell)', () => {
  const admin = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
  let base: string
  beforeAll(() => {
    base = admin.base
  })

  const parsedFor = async (state: string) => {
    const account = await admin.createAccount<XSandboxAccount>({ state })
    const parsed = parseXCookies(account.cookies)
    if (!parsed.ok) throw new Error(parsed.error)
    return { account, parsed: parsed.value }
  }

  it('says live cookies were not rejected, never that they are valid: verify_credentials is 404', async () => {
    const { account, parsed } = await parsedFor('active')
    expect(parsed.userId).toBe(account.id)
    const result = await verifyXCookies(parsed, { baseUrl: base })
    expect(result.status).toBe('not_rejected')
    expect(result.message).toMatch(/Only signing in with them in a browser proves they work/)
    const legacy = await fetch(`${base}/i/api/1.1/account/verify_credentials.json?skip_status=true`, {
      headers: { cookie: account.cookieHeader },
    })
    expect(legacy.status).toBe(404)
  })

  it('reports expired and locked sessions from where X sends the page', async () => {
    expect((await verifyXCookies((await parsedFor('expired')).parsed, { baseUrl: base })).status).toBe(
      'expired',
    )
    const locked = await verifyXCookies((await parsedFor('locked')).parsed, { baseUrl: base })
    expect(locked.status).toBe('locked')
  })

  it('rejects cookies X does not know and reports an unreachable host', async () => {
    const parsed = parseXCookies({ auth_token: AUTH, ct0: CT0 })
    if (!parsed.ok) throw new Error(parsed.error)
    expect((await verifyXCookies(parsed.value, { baseUrl: base })).status).toBe('expired')
    const down = await verifyXCookies(parsed.value, { baseUrl: 'http://127.0.0.1:9', timeoutMs: 2000 })
    expect(down.status).toBe('unreachable')
  })

  it('looks where the X facts say (the edge functions keep the same paths)', () => {
    expect(X_CHECK_PATHS).toEqual({
      home: X_FACTS.paths.home,
      signedOut: X_FACTS.urlSigns.signedOut,
      locked: X_FACTS.urlSigns.locked,
    })
  })
})
