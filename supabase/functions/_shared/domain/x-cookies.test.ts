// The shared X cookie parser: formats users paste and what they are told when cookies are wrong
// (the runner's own suite covers the same parser in more depth on its branch).
import assert from 'node:assert/strict'
import { cookieHeader, parseXCookies } from './x-cookies.ts'

const AUTH = 'a'.repeat(40)
const CT0 = 'b'.repeat(160)
const now = Date.UTC(2026, 0, 1)

Deno.test('cookies.txt and twitter.com exports become x.com cookies', () => {
  const netscape = parseXCookies(
    `# Netscape HTTP Cookie File\n#HttpOnly_.twitter.com\tTRUE\t/\tTRUE\t4102444800\tauth_token\t${AUTH}\n.twitter.com\tTRUE\t/\tTRUE\t4102444800\tct0\t${CT0}`,
    { now },
  )
  assert.ok(netscape.ok)
  if (!netscape.ok) return
  assert.deepEqual(
    netscape.value.cookies.map((c) => [c.name, c.domain, c.httpOnly]),
    [
      ['auth_token', '.x.com', true],
      ['ct0', '.x.com', false],
    ],
  )
  assert.equal(cookieHeader(netscape.value), `auth_token=${AUTH}; ct0=${CT0}`)
})

Deno.test('what is wrong is said plainly', () => {
  const cases: [unknown, RegExp][] = [
    ['', /empty/],
    [{ auth_token: 'short', ct0: CT0 }, /40 hex/],
    [{ auth_token: AUTH, ct0: 'zz' }, /CSRF token/],
    [
      [
        { name: 'auth_token', value: AUTH, expirationDate: now / 1000 - 10 },
        { name: 'ct0', value: CT0 },
      ],
      /auth_token expired on 2025-12-31/,
    ],
    [42, /JSON array exported from x.com/],
    [{ auth_token: `${AUTH};x=1`, ct0: CT0 }, /characters a cookie cannot hold/],
  ]
  for (const [input, error] of cases) {
    const result = parseXCookies(input, { now })
    assert.equal(result.ok, false, JSON.stringify(input))
    if (!result.ok) assert.match(result.error, error)
  }
})
