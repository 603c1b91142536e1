// /functions/v1 through supabase-js: the fixture functions under test/fixtures/functions run under
// Deno behind the gateway (the test instance adds that folder to the functions roots).
import { FunctionsHttpError } from '@supabase/supabase-js'
import { describe, expect, it } from 'vitest'
import { anonKey, api, client, serviceKey, signedUpUser } from './helpers.ts'

interface Echo {
  method: string
  path: string
  sub: string
  search: string
  authorization: string | null
  contentType: string | null
  forwardedFor: string | null
  body: string
  pid: number
  env: Record<string, unknown>
}

const ECHO = 'gateway-test-echo'

describe('edge functions', () => {
  it('invokes with a JSON body and the hosted environment, starting the function on first call', async () => {
    const { data, error } = await client().functions.invoke<Echo>(ECHO, { body: { hello: 'world' } })
    expect(error).toBeNull()
    expect(data).toMatchObject({
      method: 'POST',
      path: `/${ECHO}`,
      sub: '',
      authorization: `Bearer ${anonKey}`,
      contentType: 'application/json',
      body: '{"hello":"world"}',
      env: { SUPABASE_URL: api, hasAnonKey: true, hasServiceRoleKey: true, hasDbUrl: true },
    })
  })

  it('passes the method, sub-path, query and the user’s session token through', async () => {
    const { sb, session } = await signedUpUser('fn')
    const { data } = await sb.functions.invoke<Echo>(`${ECHO}/social-accounts/123/test?x=1`, {
      method: 'GET',
    })
    expect(data).toMatchObject({
      method: 'GET',
      sub: '/social-accounts/123/test',
      search: '?x=1',
      authorization: `Bearer ${session.access_token}`,
      body: '',
    })
    const deleted = await sb.functions.invoke<Echo>(`${ECHO}/items/9`, { method: 'DELETE' })
    expect(deleted.data).toMatchObject({ method: 'DELETE', sub: '/items/9' })
  })

  it('appends the address it saw to X-Forwarded-For, after whatever the client sent, as hosted does', async () => {
    const plain = await client().functions.invoke<Echo>(ECHO, { body: {} })
    expect(plain.data?.forwardedFor).toMatch(/^(::ffff:)?127\.0\.0\.1$/)
    const spoofed = await client().functions.invoke<Echo>(ECHO, {
      body: {},
      headers: { 'X-Forwarded-For': '203.0.113.9' },
    })
    expect(spoofed.data?.forwardedFor).toMatch(/^203\.0\.113\.9, (::ffff:)?127\.0\.0\.1$/)
  })

  it('streams large bodies both ways', async () => {
    const payload = 'x'.repeat(3 * 1024 * 1024)
    const response = await fetch(`${api}/functions/v1/${ECHO}/big`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${serviceKey}`, 'Content-Type': 'text/plain' },
      body: payload,
    })
    expect(response.status).toBe(200)
    const echo = (await response.json()) as Echo
    expect(echo.body.length).toBe(payload.length)
  })

  it('lets the function answer OPTIONS and its own errors, which supabase-js surfaces as FunctionsHttpError', async () => {
    const preflight = await fetch(`${api}/functions/v1/${ECHO}`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://127.0.0.1:3000', 'Access-Control-Request-Method': 'POST' },
    })
    expect(preflight.status).toBe(200)
    expect(preflight.headers.get('x-fixture')).toBe('preflight')
    const { error } = await client().functions.invoke(`${ECHO}/fail`)
    expect(error).toBeInstanceOf(FunctionsHttpError)
    const context = (error as FunctionsHttpError).context as Response
    expect(context.status).toBe(422)
    expect(await context.json()).toEqual({ error: 'Fixture says no' })
  })

  it('answers 404 JSON for a missing function and 401 without a key', async () => {
    const missing = await client().functions.invoke('no-such-function')
    expect(missing.error).toBeInstanceOf(FunctionsHttpError)
    const context = (missing.error as FunctionsHttpError).context as Response
    expect(context.status).toBe(404)
    expect(await context.json()).toMatchObject({ error: expect.any(String) })
    for (const name of ['_shared', '..', '%2e%2e']) {
      expect((await fetch(`${api}/functions/v1/${name}`, { headers: { apikey: anonKey } })).status).toBe(404)
    }
    const anonymous = await fetch(`${api}/functions/v1/${ECHO}`, { method: 'POST' })
    expect(anonymous.status).toBe(401)
    expect(await anonymous.json()).toMatchObject({ error: 'Missing authorization header' })
  })

  it('answers 502 JSON when the function dies mid-request, then restarts it on the next call', async () => {
    const before = (await client().functions.invoke<Echo>(ECHO)).data?.pid
    const crash = await fetch(`${api}/functions/v1/${ECHO}/crash`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${anonKey}` },
      body: 'bye',
    })
    expect(crash.status).toBe(502)
    expect(await crash.json()).toMatchObject({ error: expect.stringContaining('stopped') })
    // Concurrent first calls after the crash share one new process.
    const after = await Promise.all(Array.from({ length: 4 }, () => client().functions.invoke<Echo>(ECHO)))
    expect(after.map((call) => call.error)).toEqual([null, null, null, null])
    const pids = new Set(after.map((call) => call.data?.pid))
    expect(pids.size).toBe(1)
    expect(pids.has(before)).toBe(false)
  })

  it('answers 503 JSON for a function that fails while loading', async () => {
    const response = await fetch(`${api}/functions/v1/gateway-test-broken`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${anonKey}` },
    })
    expect(response.status).toBe(503)
    expect(await response.json()).toMatchObject({ error: expect.stringContaining('could not start') })
  })
})
