import assert from 'node:assert/strict'
import {
  badRequest,
  errorResponse,
  HttpError,
  handleRequest,
  INTERNAL_ERROR_MESSAGE,
  jsonResponse,
  notFound,
} from './errors.ts'

Deno.test('an HttpError becomes JSON {error} with its status, details and headers', async () => {
  const response = errorResponse(
    badRequest('Cookies are required for Twitter accounts', { issues: [{ path: 'authData' }] }),
  )
  assert.equal(response.status, 400)
  assert.deepEqual(await response.json(), {
    error: 'Cookies are required for Twitter accounts',
    issues: [{ path: 'authData' }],
  })
  const withAllow = errorResponse(
    new HttpError(405, 'Method not allowed', undefined, { Allow: 'GET, OPTIONS' }),
  )
  assert.equal(withAllow.headers.get('Allow'), 'GET, OPTIONS')
  assert.equal(withAllow.headers.get('Access-Control-Allow-Origin'), '*')
})

Deno.test('details can never overwrite the error message', async () => {
  const response = errorResponse(badRequest('Real message', { error: 'spoofed' }))
  assert.equal((await response.json()).error, 'Real message')
})

Deno.test('anything else is a 500 with a generic message; the real error is only logged', async () => {
  const logged: unknown[] = []
  const secret = new Error(
    'duplicate key value violates unique constraint "social_accounts_pkey" password=hunter2',
  )
  const response = errorResponse(secret, (_message, error) => logged.push(error))
  assert.equal(response.status, 500)
  const body = await response.json()
  assert.deepEqual(body, { error: INTERNAL_ERROR_MESSAGE })
  assert.doesNotMatch(JSON.stringify(body), /hunter2|social_accounts/)
  assert.deepEqual(logged, [secret])
})

Deno.test('handleRequest answers preflight, adds CORS to results, and maps thrown errors', async () => {
  const handler = handleRequest(
    (req) => {
      if (req.method === 'DELETE') throw notFound('Campaign not found')
      if (req.method === 'PUT') throw new TypeError('cannot read properties of undefined')
      return jsonResponse({ ok: true }, 201)
    },
    () => {},
  )
  const options = await handler(new Request('http://x/', { method: 'OPTIONS' }))
  assert.equal(options.status, 204)
  const created = await handler(new Request('http://x/', { method: 'POST' }))
  assert.equal(created.status, 201)
  assert.equal(created.headers.get('Access-Control-Allow-Origin'), '*')
  assert.deepEqual(await created.json(), { ok: true })
  const missing = await handler(new Request('http://x/', { method: 'DELETE' }))
  assert.equal(missing.status, 404)
  assert.deepEqual(await missing.json(), { error: 'Campaign not found' })
  const bug = await handler(new Request('http://x/', { method: 'PUT' }))
  assert.equal(bug.status, 500)
  assert.equal(bug.headers.get('Access-Control-Allow-Origin'), '*')
})
