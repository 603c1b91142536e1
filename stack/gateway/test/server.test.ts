// The running test gateway: health, CORS preflight and unknown routes.
import { describe, expect, it } from 'vitest'

const api = process.env.SUPABASE_URL
if (!api) throw new Error('SUPABASE_URL is not set: run this through `npm test`.')

describe('gateway server', () => {
  it('answers health and 404 for unknown prefixes', async () => {
    expect((await fetch(`${api}/health`)).status).toBe(200)
    const missing = await fetch(`${api}/nope/v1/x`)
    expect(missing.status).toBe(404)
  })

  it('answers CORS preflight with the contract headers', async () => {
    const response = await fetch(`${api}/rest/v1/anything`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://example.test', 'Access-Control-Request-Method': 'POST' },
    })
    expect(response.status).toBeLessThan(300)
    const allow = response.headers.get('access-control-allow-headers') ?? ''
    for (const header of [
      'authorization',
      'apikey',
      'prefer',
      'x-upsert',
      'range',
      'x-supabase-api-version',
    ]) {
      expect(allow).toContain(header)
    }
    expect(response.headers.get('access-control-expose-headers')).toContain('Content-Range')
  })
})
