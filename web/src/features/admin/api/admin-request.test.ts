// product.md §8 "Admin request": the exact texts for no session, 401, 403, a server error field or
// message, a body without either, a body that cannot be read, and a server that never answers.
// A small HTTP server started here gives the odd answers over a real socket; tests/admin and
// web/e2e call the real admin function.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_REQUEST_ERRORS, adminRequest, createAdminRequest } from './admin-request'

interface Seen {
  method: string
  url: string
  authorization: string | undefined
  apikey: string | undefined
  contentType: string | undefined
  body: string
}

/**
 * What the server answers for each path under /functions/v1/admin/ (the query is ignored). The odd
 * answers sit under `users/<case>`, reached as GET /users/:id with the case as the id.
 */
const answers: Record<string, (res: ServerResponse) => void> = {
  'queue-stats': (res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"totalJobs": 3}'),
  logs: (res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('[]'),
  'social-accounts/x%2Fy/pause': (res) => res.writeHead(200).end('{"paused": true}'),
  'users/unauthorized': (res) => res.writeHead(401).end('{"error": "User not authenticated"}'),
  'users/forbidden': (res) => res.writeHead(403).end('{"error": "nope"}'),
  'retries/x/retry': (res) => res.writeHead(422).end('{"error": "This job has had 6 of 6 attempts"}'),
  'users/db-down': (res) => res.writeHead(500).end('{"message": "Database is down"}'),
  'users/no-text': (res) => res.writeHead(500).end('{"detail": 1}'),
  'users/plain-500': (res) => res.writeHead(500, 'Internal Server Error').end('upstream exploded'),
  'users/html-502': (res) => res.writeHead(502, 'Bad Gateway').end('<html>Bad gateway</html>'),
  'users/ok-but-not-json': (res) => res.writeHead(200, 'OK').end('<html>maintenance</html>'),
  // Never answers: the client must give up on its own.
  'users/hang': () => {},
}

/** GET /users/:id with one of the odd cases above as the id. */
const odd = (id: string) => ['GET /users/:id', { params: { id } }] as const

describe('adminRequest against an HTTP server', () => {
  let server: Server
  let baseUrl = ''
  const seen: Seen[] = []
  // A server that answers gets the test's time (a loaded machine once took over 500 ms to reach
  // the first answer, and the client gave up); only the one that never answers needs the short wait.
  const request = (timeoutMs = 20_000) =>
    createAdminRequest({
      baseUrl,
      anonKey: 'test-anon-key',
      accessToken: async () => 'token-123',
      timeoutMs,
    })

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let body = ''
      req.on('data', (chunk) => {
        body += chunk
      })
      req.on('end', () => {
        seen.push({
          method: req.method ?? '',
          url: req.url ?? '',
          authorization: req.headers.authorization,
          apikey: req.headers.apikey as string | undefined,
          contentType: req.headers['content-type'],
          body,
        })
        const path = new URL(req.url ?? '/', 'http://x').pathname.replace('/functions/v1/admin/', '')
        const answer = answers[path] ?? ((r: ServerResponse) => r.writeHead(404).end('{"error": "no route"}'))
        answer(res)
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  it('sends the bearer token and the key to /functions/v1/admin/<path> and returns the JSON', async () => {
    await expect(request()('GET /queue-stats')).resolves.toEqual({ totalJobs: 3 })
    expect(seen.at(-1)).toMatchObject({
      method: 'GET',
      url: '/functions/v1/admin/queue-stats',
      authorization: 'Bearer token-123',
      apikey: 'test-anon-key',
    })
  })

  it('puts filters in the query, path parameters encoded in the path and bodies as JSON', async () => {
    await request()('GET /logs', { query: { level: '', service: 'twitter', limit: 100 } })
    expect(seen.at(-1)?.url).toBe('/functions/v1/admin/logs?level=&service=twitter&limit=100')
    await request()('POST /social-accounts/:id/pause', { params: { id: 'x/y' }, body: { minutes: 60 } })
    expect(seen.at(-1)).toMatchObject({
      method: 'POST',
      url: '/functions/v1/admin/social-accounts/x%2Fy/pause',
      contentType: 'application/json',
      body: '{"minutes":60}',
    })
  })

  it('without a session: Authentication required, and no request', async () => {
    const before = seen.length
    const signedOut = createAdminRequest({ baseUrl, anonKey: 'k', accessToken: async () => null })
    await expect(signedOut('GET /stats')).rejects.toThrow('Authentication required - please login again')
    // The app's own instance reads the real Supabase session, and this process has none.
    await expect(adminRequest('GET /stats')).rejects.toThrow(ADMIN_REQUEST_ERRORS.noToken)
    expect(seen.length).toBe(before)
  })

  it('401 and 403 have their own texts whatever the body says', async () => {
    await expect(request()(...odd('unauthorized'))).rejects.toThrow(
      'Authentication failed - please login again',
    )
    await expect(request()(...odd('forbidden'))).rejects.toThrow('Access denied - admin privileges required')
  })

  it("other failures: the body's error, else its message, else 'Request failed', else 'HTTP {status}: {text}'", async () => {
    await expect(request()('POST /retries/:id/retry', { params: { id: 'x' } })).rejects.toThrow(
      'This job has had 6 of 6 attempts',
    )
    await expect(request()(...odd('db-down'))).rejects.toThrow('Database is down')
    await expect(request()(...odd('no-text'))).rejects.toThrow('Request failed')
    await expect(request()(...odd('html-502'))).rejects.toThrow('HTTP 502: Bad Gateway')
    await expect(request()(...odd('plain-500'))).rejects.toThrow('HTTP 500: Internal Server Error')
  })

  it('a success whose body is not JSON fails with HTTP {status}: {text}', async () => {
    await expect(request()(...odd('ok-but-not-json'))).rejects.toThrow('HTTP 200: OK')
  })

  it("a server that never answers: 'Request failed' after the timeout", async () => {
    const started = Date.now()
    await expect(request(500)(...odd('hang'))).rejects.toThrow(ADMIN_REQUEST_ERRORS.fallback)
    expect(Date.now() - started).toBeGreaterThanOrEqual(450)
  })
})
