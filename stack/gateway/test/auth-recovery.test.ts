// Password recovery through the local outbox, and the sign-in rate limits.
import { describe, expect, it } from 'vitest'
import { gatewayEnv } from '../../src/services.ts'
import { rateLimitSettings } from '../src/auth/rate-limit.ts'
import { api, client, fakeIp, rawFetch, signedUpUser, siteUrl, uniqueEmail } from './helpers.ts'

interface Mail {
  to: string
  subject: string
  text: string
  links: string[]
}

async function mailsTo(email: string): Promise<Mail[]> {
  const response = await fetch(`${api}/_outbox.json?to=${encodeURIComponent(email)}`)
  expect(response.status).toBe(200)
  return (await response.json()) as Mail[]
}

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

  it('verifies the 6-digit code from the mail with verifyOtp', async () => {
    const { email } = await signedUpUser('recover-otp')
    const sb = client()
    const events: string[] = []
    sb.auth.onAuthStateChange((event) => {
      events.push(event)
    })
    await sb.auth.resetPasswordForEmail(email)
    const [mail] = await mailsTo(email)
    const code = /enter the code: (\d{6})/.exec(mail?.text ?? '')?.[1] ?? ''
    const wrong = await sb.auth.verifyOtp({
      email,
      token: code === '000000' ? '111111' : '000000',
      type: 'recovery',
    })
    expect(wrong.error).toMatchObject({ status: 403, code: 'otp_expired' })
    const { data, error } = await sb.auth.verifyOtp({ email, token: code, type: 'recovery' })
    expect(error).toBeNull()
    expect(data.session?.user.email).toBe(email)
    expect(events).toContain('PASSWORD_RECOVERY')
  })

  it('answers the same for unknown addresses, sends nothing, and limits resends', async () => {
    const unknown = uniqueEmail('ghost')
    expect((await client().auth.resetPasswordForEmail(unknown)).error).toBeNull()
    expect(await mailsTo(unknown)).toEqual([])
    const { email } = await signedUpUser('resend')
    expect((await client().auth.resetPasswordForEmail(email)).error).toBeNull()
    const again = await client().auth.resetPasswordForEmail(email)
    expect(again.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' })
    expect(await mailsTo(email)).toHaveLength(1)
  })
})

describe('sign-in rate limits', () => {
  // The limits the test instance's gateway runs with (stack/src/services.ts).
  const limits = rateLimitSettings(gatewayEnv(true))

  it('stops password guessing on one e-mail with 429, while other accounts still sign in', async () => {
    const { email, password } = await signedUpUser('guess')
    for (let attempt = 0; attempt < limits.perEmail; attempt++) {
      const sb = client({ headers: { 'X-Forwarded-For': fakeIp() } })
      const { error } = await sb.auth.signInWithPassword({ email, password: `wrong-${attempt}` })
      expect(error?.code).toBe('invalid_credentials')
    }
    const blocked = await client({ headers: { 'X-Forwarded-For': fakeIp() } }).auth.signInWithPassword({
      email,
      password,
    })
    expect(blocked.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' })
    const other = await signedUpUser('guess-other')
    const fine = await client({ headers: { 'X-Forwarded-For': fakeIp() } }).auth.signInWithPassword({
      email: other.email,
      password: other.password,
    })
    expect(fine.error).toBeNull()
  })

  it('limits sign-in attempts per client IP', async () => {
    const ip = fakeIp()
    const attempt = () =>
      rawFetch('/auth/v1/token?grant_type=password', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
        body: JSON.stringify({ email: uniqueEmail('ip'), password: 'whatever-pass' }),
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
})
