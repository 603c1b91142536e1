// requireCaller asks Supabase Auth (`GET /auth/v1/user`) about the token. Here a local HTTP server
// answers as the Auth API does (supabase-contract.md), so every outcome can be produced: a live
// user, an admin, a revoked session, an anon key, and Auth being down.
import assert from 'node:assert/strict'
import { AUTH_MESSAGES, bearerToken, requireAdmin, requireCaller } from './auth.ts'
import { envFrom } from './env.ts'
import { errorResponse } from './errors.ts'

const ANON = 'anon-key-for-tests'
const USERS: Record<string, { id: string; email: string; app_metadata: Record<string, unknown> }> = {
  'token-ann': {
    id: '6f1c3c2e-0a3a-4a57-9e0b-0d6b1d8e4a11',
    email: 'ann@example.com',
    app_metadata: { provider: 'email' },
  },
  'token-admin': {
    id: '0d0a2f7e-4c1f-4b8b-8f54-2b6d2b9d1c22',
    email: 'admin@example.com',
    app_metadata: { role: 'admin' },
  },
}

function startAuth(down = false) {
  const seen: Array<{ authorization: string | null; apikey: string | null }> = []
  const server = Deno.serve({ port: 0, hostname: '127.0.0.1', onListen() {} }, (req) => {
    const url = new URL(req.url)
    seen.push({ authorization: req.headers.get('Authorization'), apikey: req.headers.get('apikey') })
    if (down) return new Response('upstream unavailable', { status: 503 })
    if (url.pathname !== '/auth/v1/user') return new Response('{}', { status: 404 })
    const token = req.headers.get('Authorization')?.replace(/^Bearer /, '') ?? ''
    const user = USERS[token]
    if (user)
      return Response.json({ ...user, aud: 'authenticated', role: 'authenticated', user_metadata: {} })
    return Response.json(
      { code: 'bad_jwt', message: 'invalid JWT: unable to parse or verify signature' },
      { status: 403 },
    )
  })
  const env = envFrom({ SUPABASE_URL: `http://127.0.0.1:${server.addr.port}`, SUPABASE_ANON_KEY: ANON })
  return { server, env, seen }
}

const request = (authorization?: string) =>
  new Request('http://x/functions/v1/api/social-accounts', {
    headers: authorization ? { Authorization: authorization } : {},
  })

async function failure(promise: Promise<unknown>): Promise<[number, string]> {
  try {
    await promise
  } catch (error) {
    const response = errorResponse(error, () => {})
    return [response.status, (await response.json()).error]
  }
  throw new Error('expected a rejection')
}

Deno.test('a valid session gives the caller, checked by Auth with the token and the anon key', async () => {
  const { server, env, seen } = startAuth()
  try {
    const caller = await requireCaller(request('Bearer token-ann'), env)
    assert.equal(caller.id, USERS['token-ann']?.id)
    assert.equal(caller.email, 'ann@example.com')
    assert.equal(caller.isAdmin, false)
    assert.deepEqual(seen.at(-1), { authorization: 'Bearer token-ann', apikey: ANON })
    assert.throws(() => requireAdmin(caller), { message: AUTH_MESSAGES.notAdmin })
    const admin = await requireCaller(request('bearer   token-admin'), env)
    assert.equal(admin.isAdmin, true)
    requireAdmin(admin)
  } finally {
    await server.shutdown()
  }
})

Deno.test('no header, a malformed header, a forged token or the anon key are 401s', async () => {
  const { server, env } = startAuth()
  try {
    assert.deepEqual(await failure(requireCaller(request(), env)), [401, AUTH_MESSAGES.missing])
    assert.deepEqual(await failure(requireCaller(request('Basic abc'), env)), [401, AUTH_MESSAGES.malformed])
    assert.deepEqual(await failure(requireCaller(request('Bearer a b'), env)), [401, AUTH_MESSAGES.malformed])
    assert.deepEqual(await failure(requireCaller(request('Bearer forged.jwt.token'), env)), [
      401,
      AUTH_MESSAGES.invalid,
    ])
    assert.deepEqual(await failure(requireCaller(request(`Bearer ${ANON}`), env)), [
      401,
      AUTH_MESSAGES.invalid,
    ])
  } finally {
    await server.shutdown()
  }
})

Deno.test('Auth being down is a 503 that says so, not a 401 that would sign the user out', async () => {
  const { server, env } = startAuth(true)
  try {
    assert.deepEqual(await failure(requireCaller(request('Bearer token-ann'), env)), [
      503,
      AUTH_MESSAGES.unavailable,
    ])
  } finally {
    await server.shutdown()
  }
  const unreachable = envFrom({ SUPABASE_URL: 'http://127.0.0.1:9', SUPABASE_ANON_KEY: ANON })
  assert.deepEqual(await failure(requireCaller(request('Bearer token-ann'), unreachable)), [
    503,
    AUTH_MESSAGES.unavailable,
  ])
})

Deno.test('bearerToken reads only the token', () => {
  assert.equal(bearerToken(request('Bearer abc.def.ghi')), 'abc.def.ghi')
})
