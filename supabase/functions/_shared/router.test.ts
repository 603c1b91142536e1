import assert from 'node:assert/strict'
import { errorResponse, HttpError, jsonResponse } from './errors.ts'
import { Router, routePath } from './router.ts'

Deno.test('routePath strips everything up to the function name, through the gateway or not', () => {
  assert.equal(
    routePath('http://127.0.0.1:54321/functions/v1/api/social-accounts/123/test', 'api'),
    '/social-accounts/123/test',
  )
  assert.equal(routePath('http://edge/api/social-accounts/123/test', 'api'), '/social-accounts/123/test')
  assert.equal(routePath('http://edge/api', 'api'), '/')
  assert.equal(routePath('http://edge/functions/v1/api/', 'api'), '/')
  assert.equal(
    routePath('http://edge/api/api/create-checkout-session', 'api'),
    '/api/create-checkout-session',
  )
  assert.equal(routePath('http://edge/api/v2/campaigns?x=1', 'api'), '/v2/campaigns')
})

function router() {
  const seen: string[] = []
  const r = new Router('api')
    .get('/social-accounts', () => jsonResponse({ route: 'list' }))
    .get('/social-accounts/:id', (_req, ctx) => jsonResponse({ route: 'one', id: ctx.params.id }))
    .get('/social-accounts/platforms', () => jsonResponse({ route: 'platforms' }))
    .post('/social-accounts/:id/test', (_req, ctx) => {
      seen.push(ctx.path)
      return jsonResponse({ route: 'test', id: ctx.params.id })
    })
    .delete('/social-accounts/:id', (_req, ctx) => jsonResponse({ route: 'delete', id: ctx.params.id }))
    .post('/api/create-checkout-session', () => jsonResponse({ route: 'checkout' }))
  return { r, seen }
}

async function call(r: Router, method: string, path: string) {
  try {
    return await r.handle(new Request(`http://127.0.0.1:54321/functions/v1/api${path}`, { method }))
  } catch (error) {
    return errorResponse(error)
  }
}

Deno.test('matches method and path, with decoded params', async () => {
  const { r, seen } = router()
  assert.deepEqual(await (await call(r, 'GET', '/social-accounts')).json(), { route: 'list' })
  assert.deepEqual(await (await call(r, 'POST', '/social-accounts/a%20b/test')).json(), {
    route: 'test',
    id: 'a b',
  })
  assert.deepEqual(seen, ['/social-accounts/a%20b/test'])
  assert.deepEqual(await (await call(r, 'DELETE', '/social-accounts/42')).json(), {
    route: 'delete',
    id: '42',
  })
  assert.deepEqual(await (await call(r, 'POST', '/api/create-checkout-session')).json(), {
    route: 'checkout',
  })
})

Deno.test('a literal segment wins over a parameter whatever the order of registration', async () => {
  const { r } = router()
  assert.deepEqual(await (await call(r, 'GET', '/social-accounts/platforms')).json(), { route: 'platforms' })
  assert.deepEqual(await (await call(r, 'GET', '/social-accounts/7')).json(), { route: 'one', id: '7' })
})

Deno.test('unknown paths are 404, known paths with another method are 405 with Allow', async () => {
  const { r } = router()
  const missing = await call(r, 'GET', '/nothing/here')
  assert.equal(missing.status, 404)
  assert.match((await missing.json()).error, /No route for GET \/nothing\/here/)
  const wrong = await call(r, 'PUT', '/social-accounts/7')
  assert.equal(wrong.status, 405)
  assert.equal(wrong.headers.get('Allow'), 'GET, DELETE, OPTIONS')
  const badEscape = await call(r, 'GET', '/social-accounts/%E0%A4%A')
  assert.equal(badEscape.status, 404)
  await assert.rejects(async () => await r.handle(new Request('http://x/api/nope')), HttpError)
})
