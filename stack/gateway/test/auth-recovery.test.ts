// Password recovery through the local outbox, and the sign-in and verification abuse limits.
import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { gatewayEnv } from '../../src/services.ts'
import { clientIp, rateLimitSettings } from '../src/auth/rate-limit.ts'
import { api, client, db, fakeIp, rawFetch, signedUpUser, siteUrl, uniqueEmail } from './helpers.ts'

interface Mail {
  to: string
  subject: string
  text: string
  links: string[]
}

// The gateway mails after it has answered (so the answer's timing says nothing about the address):
// wait for the expected number of mails, a bounded number of polls.
async function mailsTo(email: string, expected = 1): Promise<Mail[]> {
  for (let poll = 0; ; poll++) {
    const response = await fetch(`${api}/_outbox.json?to=${encodeURIComponent(email)}`)
    expect(response.status).toBe(200)
    const mails = (await response.json()) as Mail[]
    if (mails.length >= expected || poll >= 100) return mails
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const codes = rateLimitSettings(gatewayEnv(true)).codes
const codeIn = (mail: Mail | undefined) =>
  new RegExp(`enter the code: (\\d{${codes.length}})\\b`).exec(mail?.text ?? '')?.[1] ?? ''
/** A code that is not `code`, of the same length. */
const otherThan = (code: string) =>
  String((Number(code) + 1) % 10 ** codes.length).padStart(codes.length, '0')

describe('password recovery', () => {
  it('mails a link that signs the user in with type=recovery, once, and lets them set a new password', async () => {
    const { email } = await signedUpUser('recover')
    const sb = client({ flowType: 'implicit' })
    const { error } = await sb.auth.resetPasswordForEmail(email, { redirectTo: `${siteUrl}/reset` })
    expect(error).toBeNull()
    const [mail] = await mailsTo(email)
    expect(mail?.subject).toBe('Reset Your Password')
    const link = mail?.links[0] ?? ''
    expect(link.startsWith(`${api}/auth/v1/verify?`)).toBe(true)
    expect(new URL(link).searchParams.get('type')).toBe('recovery')

    const page = await fetch(`${api}/_outbox`)
    expect(page.headers.get('content-type')).toContain('text/html')
    expect(await page.text()).toContain(link.replace(/&/g, '&#38;'))

    const opened = await fetch(link, { redirect: 'manual' })
    expect(opened.status).toBe(303)
    const landed = new URL(opened.headers.get('location') ?? '')
    expect(`${landed.origin}${landed.pathname}`).toBe(`${siteUrl}/reset`)
    const fragment = new URLSearchParams(landed.hash.slice(1))
    expect(fragment.get('type')).toBe('recovery')
    const set = await sb.auth.setSession({
      access_token: fragment.get('access_token') ?? '',
      refresh_token: fragment.get('refresh_token') ?? '',
    })
    expect(set.error).toBeNull()
    expect((await sb.auth.updateUser({ password: 'recovered-password' })).error).toBeNull()
    const fresh = client({ headers: { 'X-Forwarded-For': fakeIp() } })
    expect((await fresh.auth.signInWithPassword({ email, password: 'recovered-password' })).error).toBeNull()

    const reused = await fetch(link, { redirect: 'manual' })
    const failed = new URL(reused.headers.get('location') ?? '')
    expect(failed.searchParams.get('error_code')).toBe('otp_expired')
    expect(new URLSearchParams(failed.hash.slice(1)).get('access_token')).toBeNull()
  })

  it('PKCE: the link returns ?code= and the exchange raises PASSWORD_RECOVERY in supabase-js', async () => {
    const { email } = await signedUpUser('recover-pkce')
    const sb = client({ flowType: 'pkce' })
    const events: string[] = []
    sb.auth.onAuthStateChange((event) => {
      events.push(event)
    })
    expect((await sb.auth.resetPasswordForEmail(email, { redirectTo: `${siteUrl}/reset` })).error).toBeNull()
    const [mail] = await mailsTo(email)
    const opened = await fetch(mail?.links[0] ?? '', { redirect: 'manual' })
    const landed = new URL(opened.headers.get('location') ?? '')
    const code = landed.searchParams.get('code') ?? ''
    expect(code).not.toBe('')
    const flowId = landed.searchParams.get('sb_flow_id') ?? undefined
    const { data, error } = await sb.auth.exchangeCodeForSession(code, flowId ? { flowId } : undefined)
    expect(error).toBeNull()
    expect(data.user?.email).toBe(email)
    expect(events).toContain('PASSWORD_RECOVERY')
  })

  it('verifies the code from the mail (config.toml otp_length digits) with verifyOtp', async () => {
    const { email } = await signedUpUser('recover-otp')
    const sb = client()
    const events: string[] = []
    sb.auth.onAuthStateChange((event) => {
      events.push(event)
    })
    await sb.auth.resetPasswordForEmail(email)
    const [mail] = await mailsTo(email)
    const code = codeIn(mail)
    expect(code).toHaveLength(10)
    const wrong = await sb.auth.verifyOtp({ email, token: otherThan(code), type: 'recovery' })
    expect(wrong.error).toMatchObject({ status: 403, code: 'otp_expired' })
    const { data, error } = await sb.auth.verifyOtp({ email, token: code, type: 'recovery' })
    expect(error).toBeNull()
    expect(data.session?.user.email).toBe(email)
    expect(events).toContain('PASSWORD_RECOVERY')
  })

  it('answers the same for unknown addresses, sends nothing, and limits resends of both alike', async () => {
    const unknown = uniqueEmail('ghost')
    const { email } = await signedUpUser('resend')
    for (const address of [unknown, email]) {
      expect((await client().auth.resetPasswordForEmail(address)).error).toBeNull()
      const again = await client().auth.resetPasswordForEmail(address)
      expect(again.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' })
      const wait = /^For security purposes, you can only request this after (\d+) seconds\.$/.exec(
        again.error?.message ?? '',
      )
      expect(Number(wait?.[1])).toBeGreaterThan(0)
      expect(Number(wait?.[1])).toBeLessThanOrEqual(codes.resendSeconds)
    }
    expect(await mailsTo(email)).toHaveLength(1)
    expect(await mailsTo(unknown, 0)).toEqual([])
  })

  // GoTrue's verifyTokenHash refuses a hash once otp_expiry has passed since recovery_sent_at
  // (internal/api/verify.go isOtpExpired); the test moves the sending time instead of waiting.
  it('keeps a code and its link alive for config.toml otp_expiry seconds, not longer', async () => {
    const { email } = await signedUpUser('expiry')
    expect(codes.lifetimeSeconds).toBe(900)
    const hashOf = async () => {
      await client().auth.resetPasswordForEmail(email)
      const [mail] = await mailsTo(email)
      return new URL(mail?.links[0] ?? '').searchParams.get('token') ?? ''
    }
    const token = await hashOf()
    const sentAgo = (seconds: number) =>
      db().query(
        `update auth.users set recovery_sent_at = now() - make_interval(secs => $2) where lower(email) = $1`,
        [email, seconds],
      )
    await sentAgo(codes.lifetimeSeconds + 5)
    const late = await client({ headers: { 'X-Forwarded-For': fakeIp() } }).auth.verifyOtp({
      token_hash: token,
      type: 'recovery',
    })
    expect(late.error).toMatchObject({ status: 403, code: 'otp_expired' })
    await sentAgo(codes.lifetimeSeconds - 30)
    const inTime = await client({ headers: { 'X-Forwarded-For': fakeIp() } }).auth.verifyOtp({
      token_hash: token,
      type: 'recovery',
    })
    expect(inTime.error).toBeNull()
    expect(inTime.data.session?.user.email).toBe(email)
  })
})

describe('sign-in rate limits', () => {
  // The limits the test instance's gateway runs with (stack/src/services.ts).
  const limits = rateLimitSettings(gatewayEnv(true))

  // GoTrue limits sign-in by client address only (internal/api/api.go wraps /token in
  // limitHandler keyed on the configured RateLimitHeader; config.toml [auth.rate_limit]
  // sign_in_sign_ups is "per IP address") and never locks an account. The gateway also stops
  // repeated wrong passwords for one account from one address (limit by IP and
  // IP+account, never lock the account for other sources).
  it('stops password guessing on one e-mail from one address, while its owner still signs in elsewhere', async () => {
    const { email, password } = await signedUpUser('guess')
    const guesser = client({ headers: { 'X-Forwarded-For': fakeIp() } })
    for (let attempt = 0; attempt < limits.perEmail; attempt++) {
      const { error } = await guesser.auth.signInWithPassword({ email, password: `wrong-${attempt}` })
      expect(error?.code).toBe('invalid_credentials')
    }
    const blocked = await guesser.auth.signInWithPassword({ email, password })
    expect(blocked.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' })
    const owner = await client({ headers: { 'X-Forwarded-For': fakeIp() } }).auth.signInWithPassword({
      email,
      password,
    })
    expect(owner.error).toBeNull()
  })

  it('limits sign-in attempts per client IP', async () => {
    const ip = fakeIp()
    // An empty password is counted like any attempt but costs no bcrypt round (for any address), so
    // reaching the test instance's 300 stays quick on a loaded machine.
    const attempt = () =>
      rawFetch('/auth/v1/token?grant_type=password', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
        body: JSON.stringify({ email: uniqueEmail('ip'), password: '' }),
      })
    const statuses: number[] = []
    for (let batch = 0; batch < limits.perIp; batch += 25) {
      const size = Math.min(25, limits.perIp - batch)
      statuses.push(...(await Promise.all(Array.from({ length: size }, attempt))).map((r) => r.status))
    }
    expect(statuses.every((status) => status === 400)).toBe(true)
    const over = await attempt()
    expect(over.status).toBe(429)
    expect(await over.json()).toMatchObject({ error_code: 'over_request_rate_limit' })
    const elsewhere = await rawFetch('/auth/v1/token?grant_type=password', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': fakeIp() },
      body: JSON.stringify({ email: uniqueEmail('ip'), password: 'whatever-pass' }),
    })
    expect(elsewhere.status).toBe(400)
  })

  // GoTrue's /verify sits behind limitHandler(limiterOpts.Verify) (internal/api/api.go), a limiter
  // of RateLimitVerify per 5 minutes per address (internal/api/apilimiter/apilimiter.go;
  // config.toml token_verifications = 30), answering 429 over_request_rate_limit
  // (internal/api/apierrors/errorcode.go); a wrong code is 403 otp_expired "Token has expired or is
  // invalid" (internal/api/verify.go).
  it('limits code verifications per client IP (token_verifications)', async () => {
    const ip = fakeIp()
    const verify = (address: string) =>
      rawFetch('/auth/v1/verify', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': address },
        body: JSON.stringify({ type: 'recovery', email: uniqueEmail('nobody'), token: '123456' }),
      })
    const statuses: number[] = []
    for (let batch = 0; batch < limits.verifyPerIp; batch += 25) {
      const size = Math.min(25, limits.verifyPerIp - batch)
      statuses.push(
        ...(await Promise.all(Array.from({ length: size }, () => verify(ip)))).map((r) => r.status),
      )
    }
    expect(statuses.every((status) => status === 403)).toBe(true)
    const over = await verify(ip)
    expect(over.status).toBe(429)
    expect(await over.json()).toMatchObject({ error_code: 'over_request_rate_limit' })
    const link = await fetch(`${api}/auth/v1/verify?type=recovery&token=x`, {
      redirect: 'manual',
      headers: { 'X-Forwarded-For': ip },
    })
    expect(link.status).toBe(429)
    const elsewhere = await verify(fakeIp())
    expect(elsewhere.status).toBe(403)
    expect(await elsewhere.json()).toMatchObject({
      error_code: 'otp_expired',
      msg: 'Token has expired or is invalid',
    })
  })

  // A code must not be guessable by spreading tries over addresses, yet guessers must not be able
  // to lock its owner out: once one e-mail has had a few wrong codes, every address that misses for
  // it is turned away (429, GoTrue's over_request_rate_limit) before its next guess is looked at,
  // while the owner's right code from their own address still works.
  it("turns away addresses that keep guessing one user's code, and the owner still gets in", async () => {
    const { email } = await signedUpUser('otp-guess')
    expect((await client().auth.resetPasswordForEmail(email)).error).toBeNull()
    const [mail] = await mailsTo(email)
    const code = codeIn(mail)
    expect(code).toMatch(/^\d+$/)
    const guessers = Array.from({ length: limits.guesses.missesPerEmail + 2 }, () =>
      client({ headers: { 'X-Forwarded-For': fakeIp() } }),
    )
    for (const guesser of guessers) {
      const guess = await guesser.auth.verifyOtp({ email, token: otherThan(code), type: 'recovery' })
      expect(guess.error).toMatchObject({ status: 403, code: 'otp_expired' })
    }
    // The guessers past the per-e-mail budget are backed off, even holding the right code now.
    const last = guessers.at(-1)
    const again = await last?.auth.verifyOtp({ email, token: code, type: 'recovery' })
    expect(again?.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' })
    expect(again?.data.session).toBeNull()
    const owner = await client({ headers: { 'X-Forwarded-For': fakeIp() } }).auth.verifyOtp({
      email,
      token: code,
      type: 'recovery',
    })
    expect(owner.error).toBeNull()
    expect(owner.data.session?.user.email).toBe(email)
  })

  it('a right code within the allowed misses still signs in', async () => {
    const { email } = await signedUpUser('otp-typo')
    expect((await client().auth.resetPasswordForEmail(email)).error).toBeNull()
    const [mail] = await mailsTo(email)
    const code = codeIn(mail)
    const wrong = otherThan(code)
    const sb = client({ headers: { 'X-Forwarded-For': fakeIp() } })
    expect((await sb.auth.verifyOtp({ email, token: wrong, type: 'recovery' })).error?.code).toBe(
      'otp_expired',
    )
    const right = await sb.auth.verifyOtp({ email, token: code, type: 'recovery' })
    expect(right.error).toBeNull()
    expect(right.data.session?.access_token).toBeTruthy()
  })
})

// GoTrue reads a client address from a header only when GOTRUE_RATE_LIMIT_HEADER is configured
// (internal/api/middleware.go performRateLimitingWithHeader: "If no rate limit header was set,
// ignore rate limiting" by header); otherwise the limiter's key is the connection's address. The
// dev instance trusts no proxy, so a client rotating X-Forwarded-For from loopback keeps its own
// (loopback) budget; the test instance trusts loopback because tests stand in for a proxy.
describe('client address behind proxies', () => {
  const peer = (remoteAddress: string, forwarded?: string) =>
    ({
      socket: { remoteAddress },
      headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
    }) as unknown as IncomingMessage

  it('ignores X-Forwarded-For unless the peer is a configured proxy', () => {
    const dev = rateLimitSettings(gatewayEnv(false))
    expect(dev.trustedProxies.size).toBe(0)
    for (const rotated of ['10.0.0.1', '10.0.0.2', '203.0.113.9, 10.0.0.3']) {
      expect(clientIp(peer('127.0.0.1', rotated), dev.trustedProxies)).toBe('127.0.0.1')
    }
    const proxied = new Set(['192.0.2.10'])
    expect(clientIp(peer('192.0.2.10', '203.0.113.9'), proxied)).toBe('203.0.113.9')
    // Only the hop the trusted proxy appended counts; what the client wrote before it does not.
    expect(clientIp(peer('192.0.2.10', '10.9.9.9, 203.0.113.9'), proxied)).toBe('203.0.113.9')
    expect(clientIp(peer('198.51.100.7', '203.0.113.9'), proxied)).toBe('198.51.100.7')
  })
})
