import assert from 'node:assert/strict'
import { ALLOWED_HEADERS, corsHeaders, preflight, withCors } from './cors.ts'

Deno.test('preflight answers OPTIONS with 204 and the contract headers, and ignores other methods', () => {
  const response = preflight(new Request('http://x/functions/v1/api/social-accounts', { method: 'OPTIONS' }))
  assert.equal(response?.status, 204)
  assert.equal(response?.headers.get('Access-Control-Allow-Origin'), '*')
  for (const header of [
    'authorization',
    'x-client-info',
    'apikey',
    'content-type',
    'x-supabase-api-version',
    'x-retry-count',
  ]) {
    assert.ok(response?.headers.get('Access-Control-Allow-Headers')?.split(', ').includes(header), header)
  }
  assert.equal(
    response?.headers.get('Access-Control-Expose-Headers'),
    'Content-Range, X-Supabase-Api-Version',
  )
  assert.match(response?.headers.get('Access-Control-Allow-Methods') ?? '', /DELETE/)
  assert.equal(preflight(new Request('http://x/', { method: 'GET' })), null)
})

Deno.test('withCors adds the headers to any response, even one with immutable headers', async () => {
  const fetched = Response.redirect('http://x/elsewhere', 302) // immutable headers
  const response = withCors(fetched)
  assert.equal(response.status, 302)
  assert.equal(response.headers.get('Location'), 'http://x/elsewhere')
  assert.equal(response.headers.get('Access-Control-Allow-Headers'), ALLOWED_HEADERS)
  const json = withCors(new Response('{"a":1}', { headers: { 'Content-Type': 'application/json' } }))
  assert.deepEqual(await json.json(), { a: 1 })
  assert.equal(json.headers.get('Access-Control-Allow-Origin'), corsHeaders['Access-Control-Allow-Origin'])
})
