// What the clients send: the caller-scoped client carries the caller's token (so PostgREST applies
// RLS as that user); the service client carries the service-role key. A local server records it.
import assert from 'node:assert/strict'
import { callerClient, serviceClient } from './clients.ts'
import { envFrom } from './env.ts'

function startRest() {
  const seen: Array<{ path: string; authorization: string | null; apikey: string | null }> = []
  const server = Deno.serve({ port: 0, hostname: '127.0.0.1', onListen() {} }, (req) => {
    seen.push({
      path: new URL(req.url).pathname,
      authorization: req.headers.get('Authorization'),
      apikey: req.headers.get('apikey'),
    })
    return Response.json([{ id: 1 }])
  })
  return { server, seen, url: `http://127.0.0.1:${server.addr.port}` }
}

Deno.test('the caller client queries with the caller’s token and the anon key', async () => {
  const { server, seen, url } = startRest()
  try {
    const env = envFrom({
      SUPABASE_URL: url,
      SUPABASE_ANON_KEY: 'anon',
      SUPABASE_SERVICE_ROLE_KEY: 'service',
    })
    const { data, error } = await callerClient('Bearer user-token', env).from('social_accounts').select('id')
    assert.equal(error, null)
    assert.deepEqual(data, [{ id: 1 }])
    assert.deepEqual(seen.at(-1), {
      path: '/rest/v1/social_accounts',
      authorization: 'Bearer user-token',
      apikey: 'anon',
    })
  } finally {
    await server.shutdown()
  }
})

Deno.test('the service client uses the service-role key and is reused per project', async () => {
  const { server, seen, url } = startRest()
  try {
    const env = envFrom({
      SUPABASE_URL: url,
      SUPABASE_ANON_KEY: 'anon',
      SUPABASE_SERVICE_ROLE_KEY: 'service',
    })
    const client = serviceClient(env)
    assert.equal(serviceClient(env), client)
    await client.from('subscriptions').select('id')
    assert.deepEqual(seen.at(-1), {
      path: '/rest/v1/subscriptions',
      authorization: 'Bearer service',
      apikey: 'service',
    })
  } finally {
    await server.shutdown()
  }
})

Deno.test('missing settings are configuration errors, not silent defaults', () => {
  assert.throws(
    () => callerClient('Bearer x', envFrom({ SUPABASE_URL: 'http://127.0.0.1:1' })),
    /SUPABASE_ANON_KEY is not set/,
  )
  assert.throws(
    () => serviceClient(envFrom({ SUPABASE_URL: 'http://127.0.0.1:1' })),
    /SUPABASE_SERVICE_ROLE_KEY is not set/,
  )
})
