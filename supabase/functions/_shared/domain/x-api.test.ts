import assert from 'node:assert/strict'
import { rateLimitOf } from './x-api.ts'

const headers = (values: Record<string, string | number>) =>
  new Headers(Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)])))

Deno.test('the 15-minute window is the rate limit while no 24-hour DM limit is spent', () => {
  const rate = rateLimitOf(
    headers({
      'x-rate-limit-limit': 200,
      'x-rate-limit-remaining': 0,
      'x-rate-limit-reset': 1_000,
      'x-user-limit-24hour-limit': 1000,
      'x-user-limit-24hour-remaining': 5,
      'x-user-limit-24hour-reset': 90_000,
      'x-app-limit-24hour-limit': 15000,
      'x-app-limit-24hour-remaining': 9,
      'x-app-limit-24hour-reset': 80_000,
    }),
  )
  assert.deepEqual(rate, { limit: 200, remaining: 0, resetAt: 1_000_000 })
})

Deno.test('a spent 24-hour limit wins, the app’s across its users as well as the user’s, the later reset first', () => {
  const base = { 'x-rate-limit-limit': 200, 'x-rate-limit-remaining': 150, 'x-rate-limit-reset': 1_000 }
  assert.deepEqual(
    rateLimitOf(
      headers({
        ...base,
        'x-app-limit-24hour-limit': 15000,
        'x-app-limit-24hour-remaining': 0,
        'x-app-limit-24hour-reset': 80_000,
      }),
    ),
    { limit: 15000, remaining: 0, resetAt: 80_000_000 },
  )
  assert.deepEqual(
    rateLimitOf(
      headers({
        ...base,
        'x-user-limit-24hour-limit': 1000,
        'x-user-limit-24hour-remaining': 0,
        'x-user-limit-24hour-reset': 90_000,
        'x-app-limit-24hour-limit': 15000,
        'x-app-limit-24hour-remaining': 0,
        'x-app-limit-24hour-reset': 80_000,
      }),
    )?.resetAt,
    90_000_000,
  )
  assert.equal(rateLimitOf(new Headers()), null)
})
