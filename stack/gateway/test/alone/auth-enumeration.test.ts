// Whether an address has an account must not show in Auth's answers or in how long they take: a
// wrong password is hashed against a bcrypt salt of the same cost when there is no account
// (stack/gateway/src/auth/users.ts), and recovery answers (including its 429) before the address is
// looked up (recovery.ts). Timings are compared as a ratio of medians of interleaved samples taken in
// one run, so machine load slows both sides alike; the bound is generous (the difference it guards
// against was a factor of about 25). Runs alone, so no other suite's load lands on one side only.
import { performance } from 'node:perf_hooks'
import { describe, expect, it } from 'vitest'
import { anonKey, api, fakeIp, signedUpUser, uniqueEmail } from '../helpers.ts'

const SAMPLES = 21

async function timed(path: string, body: unknown, ip = fakeIp()) {
  const started = performance.now()
  const response = await fetch(`${api}/auth/v1${path}`, {
    method: 'POST',
    headers: {
      apikey: anonKey,
      'Content-Type': 'application/json',
      'X-Forwarded-For': ip,
      'X-Supabase-Api-Version': '2024-01-01',
    },
    body: JSON.stringify(body),
  })
  const text = await response.text()
  return { ms: performance.now() - started, status: response.status, body: text }
}

/** Both calls, one after the other in the order asked, results in argument order. */
async function inTurn<T>(
  firstFirst: boolean,
  first: () => Promise<T>,
  second: () => Promise<T>,
): Promise<[T, T]> {
  if (firstFirst) {
    const a = await first()
    return [a, await second()]
  }
  const b = await second()
  return [await first(), b]
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

describe('telling customers from strangers', () => {
  it('a wrong password: the same answer, in the same time, for an account and for no account', async () => {
    const { email } = await signedUpUser('enum-known')
    const known: number[] = []
    const unknown: number[] = []
    for (let i = 0; i < SAMPLES; i++) {
      // Each from a new address so no limit is reached; which goes first alternates.
      const tryKnown = () => timed('/token?grant_type=password', { email, password: `wrong-${i}` })
      const tryUnknown = () =>
        timed('/token?grant_type=password', { email: uniqueEmail('enum-nobody'), password: `wrong-${i}` })
      const [forKnown, forUnknown] = await inTurn(i % 2 === 0, tryKnown, tryUnknown)
      expect(forKnown.status).toBe(400)
      expect(forUnknown.body).toBe(forKnown.body)
      known.push(forKnown.ms)
      unknown.push(forUnknown.ms)
    }
    expect(JSON.parse((await timed('/token?grant_type=password', { email, password: 'x' })).body)).toEqual({
      code: 'invalid_credentials',
      message: 'Invalid login credentials',
    })
    const ratio = median(unknown) / median(known)
    expect(
      ratio,
      `medians: account ${median(known).toFixed(1)} ms, none ${median(unknown).toFixed(1)} ms`,
    ).toBeGreaterThan(0.5)
    expect(ratio).toBeLessThan(2)
  })

  it('the per-address guessing limit answers alike for an account and for no account', async () => {
    const { email } = await signedUpUser('enum-limit')
    const sequence = async (address: string) => {
      const ip = fakeIp()
      const answers: string[] = []
      for (let i = 0; i < 12; i++) {
        const { status, body } = await timed(
          '/token?grant_type=password',
          { email: address, password: `wrong-${i}` },
          ip,
        )
        answers.push(`${status} ${body}`)
      }
      return answers
    }
    const forKnown = await sequence(email)
    expect(forKnown.at(-1)).toMatch(/^429 /)
    expect(await sequence(uniqueEmail('enum-limit-nobody'))).toEqual(forKnown)
  })

  it('password recovery: the same answers, the same resend limit, the same time', async () => {
    const known: number[] = []
    const unknown: number[] = []
    const accounts = await Promise.all(
      Array.from({ length: SAMPLES }, (_, i) => signedUpUser(`enum-recover-${i}`)),
    )
    for (const [i, account] of accounts.entries()) {
      const stranger = uniqueEmail('enum-recover-nobody')
      const [forKnown, forUnknown] = await inTurn(
        i % 2 === 0,
        () => timed('/recover', { email: account.email }),
        () => timed('/recover', { email: stranger }),
      )
      expect(forKnown.status).toBe(200)
      expect(forUnknown.body).toBe(forKnown.body)
      known.push(forKnown.ms)
      unknown.push(forUnknown.ms)
      if (i === 0) {
        const againKnown = await timed('/recover', { email: account.email })
        const againUnknown = await timed('/recover', { email: stranger })
        expect(againKnown.status).toBe(429)
        expect(againUnknown.status).toBe(429)
        expect(JSON.parse(againUnknown.body)).toMatchObject({ code: 'over_email_send_rate_limit' })
        expect(JSON.parse(againUnknown.body).code).toBe(JSON.parse(againKnown.body).code)
      }
    }
    const ratio = median(unknown) / median(known)
    expect(
      ratio,
      `medians: account ${median(known).toFixed(1)} ms, none ${median(unknown).toFixed(1)} ms`,
    ).toBeGreaterThan(0.5)
    expect(ratio).toBeLessThan(2)
  })
})
