// Spec §8 "Admin request": the exact texts for no session, 401, 403, a server error field or
// message, a body without either, and a body that cannot be read. The server is stood in for by
// Responses here; tests/admin and web/e2e call the real admin function.
import type { Session } from '@supabase/supabase-js'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { supabase } from '@/lib/supabase'
import { ADMIN_REQUEST_ERRORS, adminRequest } from './admin-request'

const session = { access_token: 'token-123' } as Session
const answer = (status: number, body: string, statusText = '') => new Response(body, { status, statusText })

describe('adminRequest', () => {
  const fetchMock = vi.fn<typeof fetch>()
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock)
    vi.spyOn(supabase.auth, 'getSession').mockResolvedValue({ data: { session }, error: null })
  })
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.restoreAllMocks()
    fetchMock.mockReset()
  })

  it('sends the bearer token and the key to /functions/v1/admin/<path> and returns the JSON', async () => {
    fetchMock.mockResolvedValue(answer(200, '{"totalJobs": 3}'))
    await expect(adminRequest('queue-stats')).resolves.toEqual({ totalJobs: 3 })
    const [url, init] = fetchMock.mock.calls[0] ?? []
    expect(String(url)).toBe('http://127.0.0.1:9/functions/v1/admin/queue-stats')
    const headers = (init?.headers ?? {}) as Record<string, string>
    expect(headers.Authorization).toBe('Bearer token-123')
    expect(headers.apikey).toBe('unit-test-anon-key')
  })

  it('puts filters in the query and bodies as JSON', async () => {
    fetchMock.mockImplementation(async () => answer(200, '[]'))
    await adminRequest('logs', { query: { level: '', service: 'twitter', limit: 100 } })
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe(
      'http://127.0.0.1:9/functions/v1/admin/logs?level=&service=twitter&limit=100',
    )
    await adminRequest('social-accounts/x/pause', { method: 'POST', body: { minutes: 60 } })
    expect(fetchMock.mock.calls[1]?.[1]).toMatchObject({ method: 'POST', body: '{"minutes":60}' })
  })

  it('without a session: Authentication required, and no request', async () => {
    vi.spyOn(supabase.auth, 'getSession').mockResolvedValue({ data: { session: null }, error: null })
    await expect(adminRequest('stats')).rejects.toThrow(ADMIN_REQUEST_ERRORS.noToken)
    expect(ADMIN_REQUEST_ERRORS.noToken).toBe('Authentication required - please login again')
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('401 and 403 have their own texts whatever the body says', async () => {
    fetchMock.mockResolvedValueOnce(answer(401, '{"error": "User not authenticated"}'))
    await expect(adminRequest('stats')).rejects.toThrow('Authentication failed - please login again')
    fetchMock.mockResolvedValueOnce(answer(403, '{"error": "nope"}'))
    await expect(adminRequest('stats')).rejects.toThrow('Access denied - admin privileges required')
  })

  it("other failures: the body's error, else its message, else 'Request failed', else 'HTTP {status}: {text}'", async () => {
    fetchMock.mockResolvedValueOnce(answer(422, '{"error": "This job has had 6 of 6 attempts"}'))
    await expect(adminRequest('retries/x/retry', { method: 'POST' })).rejects.toThrow(
      'This job has had 6 of 6 attempts',
    )
    fetchMock.mockResolvedValueOnce(answer(500, '{"message": "Database is down"}'))
    await expect(adminRequest('stats')).rejects.toThrow('Database is down')
    fetchMock.mockResolvedValueOnce(answer(500, '{"detail": 1}'))
    await expect(adminRequest('stats')).rejects.toThrow('Request failed')
    fetchMock.mockResolvedValueOnce(answer(502, '<html>Bad gateway</html>', 'Bad Gateway'))
    await expect(adminRequest('stats')).rejects.toThrow('HTTP 502: Bad Gateway')
  })
})
