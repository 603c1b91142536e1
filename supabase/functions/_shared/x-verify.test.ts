// The HTTP check of X cookies against a local stand-in for x.com as of July 2026 (verify_credentials
// answers 404 to cookie sessions): a plain request for /home with the cookies shows a sign-out or a
// lock; a served page is only "not rejected", never "valid". The same check against the X sandbox
// runs in tests/functions and the runner's tests.
import assert from 'node:assert/strict'
import { parseXCookies } from '@reachflow/domain'
import { verifyXCookies } from './x-verify.ts'

const AUTH = 'a'.repeat(40)
const CT0 = 'c'.repeat(64)

function cookies(auth = AUTH) {
  const parsed = parseXCookies({ auth_token: auth, ct0: CT0, twid: 'u%3D42' })
  if (!parsed.ok) throw new Error(parsed.error)
  return parsed.value
}

/** Answers like x.com: the account behind AUTH gets its page; other tokens say what their name asks for. */
function startFakeX() {
  const seen: Request[] = []
  const server = Deno.serve({ port: 0, hostname: '127.0.0.1', onListen() {} }, (req) => {
    seen.push(req)
    const url = new URL(req.url)
    if (url.pathname !== '/home') return new Response(null, { status: 404 })
    const token = /auth_token=([^;]+)/.exec(req.headers.get('cookie') ?? '')?.[1] ?? ''
    if (token === AUTH) return new Response('<!doctype html><div id="react-root"></div>')
    if (token === 'd'.repeat(40))
      return new Response(null, { status: 302, headers: { location: '/account/access' } })
    if (token === 'e'.repeat(40)) return new Response('Rate limit exceeded', { status: 429 })
    return new Response(null, {
      status: 302,
      headers: { location: 'https://x.com/i/flow/login?redirect_after_login=%2Fhome' },
    })
  })
  return { server, seen, baseUrl: `http://127.0.0.1:${server.addr.port}` }
}

Deno.test('cookies X serves its page to are "not rejected", never "valid": only a browser proves a session', async () => {
  const { server, seen, baseUrl } = startFakeX()
  try {
    const result = await verifyXCookies(cookies(), { baseUrl })
    assert.equal(result.status, 'not_rejected')
    assert.match(result.message, /Only signing in with them in a browser proves they work/)
    assert.equal(seen[0]?.headers.get('cookie'), `auth_token=${AUTH}; ct0=${CT0}; twid=u%3D42`)
    assert.equal(new URL(seen[0]?.url ?? '').pathname, '/home')
  } finally {
    await server.shutdown()
  }
})

Deno.test('signed out, locked, rate limited and unreachable each say what to do', async () => {
  const { server, baseUrl } = startFakeX()
  try {
    assert.equal((await verifyXCookies(cookies('b'.repeat(40)), { baseUrl })).status, 'expired')
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

Deno.test('X failing with a 5xx is "unreachable", never a verdict on the cookies', async () => {
  for (const status of [500, 502, 503]) {
    const failing = () => Promise.resolve(new Response('{"errors":[{"code":131}]}', { status }))
    const result = await verifyXCookies(cookies(), { baseUrl: 'http://x.invalid', fetch: failing })
    assert.deepEqual(result, {
      status: 'unreachable',
      message: `X could not answer (HTTP ${status}) when checking the cookies. Please try again in a few minutes.`,
    })
  }
})
