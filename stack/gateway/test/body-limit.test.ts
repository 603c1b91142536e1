// Bodies over the gateway's 10 MB limit are answered 413 however they are sent. A chunked upload
// (no Content-Length, the limit found while reading) used to have its socket destroyed under it:
// the client saw ECONNRESET/EPIPE instead of an answer (the soak's function fuzz failed that way).
import { describe, expect, it } from 'vitest'
import { anonKey, api } from './helpers.ts'

const OVER_LIMIT = 10 * 1024 * 1024 + 64 * 1024

function post(path: string, chunked: boolean) {
  const body = 'x'.repeat(OVER_LIMIT)
  return fetch(`${api}${path}`, {
    method: 'POST',
    headers: { apikey: anonKey, Authorization: `Bearer ${anonKey}`, 'Content-Type': 'application/json' },
    ...(chunked ? { body: new Blob([body]).stream(), duplex: 'half' } : { body }),
  } as RequestInit)
}

describe('bodies over the limit', () => {
  for (const path of ['/rest/v1/rpc/dashboard_summary', '/functions/v1/api/v2/campaigns']) {
    for (const chunked of [false, true]) {
      it(`${path}, ${chunked ? 'chunked' : 'with Content-Length'}: 413 with a message, then the next request works`, async () => {
        const response = await post(path, chunked)
        expect(response.status).toBe(413)
        expect(((await response.json()) as { message?: string }).message).toBe('Payload Too Large')
        const next = await fetch(`${api}/rest/v1/`, { headers: { apikey: anonKey } })
        expect(next.status).toBeLessThan(500)
        await next.arrayBuffer()
      })
    }
  }
})
