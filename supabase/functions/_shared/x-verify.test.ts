// The live cookie check against a local server that answers as x.com's verify_credentials does
// (platforms.md): the headers X requires, a signed-in account, and each way X refuses. The same
// check against the X sandbox runs in tests/functions/social-accounts.test.ts.
import assert from 'node:assert/strict'
import { parseXCookies } from './x-cookies.ts'
import { verifyXCookies, X_WEB_BEARER } from './x-verify.ts'

const AUTH = 'a'.repeat(40)
const CT0 = 'c'.repeat(64)

function cookies(auth = AUTH) {
  const parsed = parseXCookies({ auth_token: auth, ct0: CT0, twid: 'u%3D42' })
  if (!parsed.ok) throw new Error(parsed.error)
  return parsed.value
}

/** Answers like X: the account behind AUTH is fine; other tokens say what their name asks for. */
function startFakeX() {
  const seen: Headers[] = []
  const server = Deno.serve({ port: 0, hostname: '127.0.0.1', onListen() {} }, (req) => {
    seen.push(req.headers)
    const url = new URL(req.url)
    if (
      url.pathname !== '/i/api/1.1/account/verify_credentials.json' ||
      url.searchParams.get('skip_status') !== 'true'
    )
      return new Response('{}', { status: 404 })
    const token = /auth_token=([^;]+)/.exec(req.headers.get('cookie') ?? '')?.[1] ?? ''
    if (
      req.headers.get('authorization') !== `Bearer ${X_WEB_BEARER}` ||
      req.headers.get('x-csrf-token') !== CT0
    )
      return Response.json(
        { errors: [{ code: 353, message: 'This request requires a matching csrf cookie and header.' }] },
        { status: 403 },
      )
    if (token === AUTH) return Response.json({ id: 42, id_str: '42', screen_name: 'ann_x', name: 'Ann' })
    if (token === 'd'.repeat(40))
      return Response.json({ errors: [{ code: 326, message: 'locked' }] }, { status: 403 })
    if (token === 'e'.repeat(40))
      return Response.json({ errors: [{ code: 88, message: 'Rate limit exceeded' }] }, { status: 429 })
    if (token === 'f'.repeat(40))
      return new Response(null, { status: 302, headers: { location: '/i/flow/login' } })
    return Response.json({ errors: [{ code: 32, message: 'Could not authenticate you.' }] }, { status: 401 })
  })
  return { server, seen, baseUrl: `http://127.0.0.1:${server.addr.port}` }
}

Deno.test('valid cookies: the account behind them, asked for with the cookie header, ct0 and the web bearer', async () => {
  const { server, seen, baseUrl } = startFakeX()
  try {
    const result = await verifyXCookies(cookies(), { baseUrl })
    assert.deepEqual(result, { status: 'valid', user: { id: '42', username: 'ann_x', name: 'Ann' } })
    assert.equal(seen[0]?.get('cookie'), `auth_token=${AUTH}; ct0=${CT0}; twid=u%3D42`)
  } finally {
    await server.shutdown()
  }
})

Deno.test('signed out, locked, rate limited and unreachable each say what to do', async () => {
  const { server, baseUrl } = startFakeX()
  try {
    assert.equal((await verifyXCookies(cookies('b'.repeat(40)), { baseUrl })).status, 'expired')
    assert.equal((await verifyXCookies(cookies('f'.repeat(40)), { baseUrl })).status, 'expired')
    const locked = await verifyXCookies(cookies('d'.repeat(40)), { baseUrl })
    assert.deepEqual(locked, {
      status: 'locked',
      message: 'X has locked this account. Unlock it on x.com, then export fresh cookies.',
    })
    assert.equal((await verifyXCookies(cookies('e'.repeat(40)), { baseUrl })).status, 'rate_limited')
  } finally {
    await server.shutdown()
  }
  const down = await verifyXCookies(cookies(), { baseUrl, timeoutMs: 2000 })
  assert.equal(down.status, 'unreachable')
})
