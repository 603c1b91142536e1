// The Auth admin invite (service role only): a mail through the local outbox whose link confirms the
// address once, signs the person in with type=invite and lands on redirect_to; a taken address is 422.
// An address that has a login gets a magic link instead (POST /otp with create_user false).
import { describe, expect, it } from 'vitest'
import { api, client, serviceClient, signedUpUser, siteUrl, uniqueEmail } from './helpers.ts'

interface Mail {
  to: string
  subject: string
  links: string[]
}

async function mailsTo(email: string): Promise<Mail[]> {
  const response = await fetch(`${api}/_outbox.json?to=${encodeURIComponent(email)}`)
  expect(response.status).toBe(200)
  return (await response.json()) as Mail[]
}

describe('admin invite', () => {
  it('mails a link that signs the invited person in once, with type=invite, on redirect_to', async () => {
    const email = uniqueEmail('invited')
    const invited = await serviceClient().auth.admin.inviteUserByEmail(email, {
      redirectTo: `${siteUrl}/invite/abc`,
      data: { invited_to: 'Client A' },
    })
    expect(invited.error).toBeNull()
    expect(invited.data.user?.email).toBe(email)
    expect(invited.data.user?.email_confirmed_at).toBeNull()
    expect(invited.data.user?.user_metadata).toMatchObject({ invited_to: 'Client A' })

    const [mail] = await mailsTo(email)
    expect(mail?.subject).toBe('You have been invited')
    const link = mail?.links[0] ?? ''
    expect(new URL(link).searchParams.get('type')).toBe('invite')
    const opened = await fetch(link, { redirect: 'manual' })
    expect(opened.status).toBe(303)
    const landed = new URL(opened.headers.get('location') ?? '')
    expect(`${landed.origin}${landed.pathname}`).toBe(`${siteUrl}/invite/abc`)
    const fragment = new URLSearchParams(landed.hash.slice(1))
    expect(fragment.get('type')).toBe('invite')
    const sb = client({ flowType: 'implicit' })
    const set = await sb.auth.setSession({
      access_token: fragment.get('access_token') ?? '',
      refresh_token: fragment.get('refresh_token') ?? '',
    })
    expect(set.error).toBeNull()
    expect(set.data.user?.email).toBe(email)
    expect(set.data.user?.email_confirmed_at).not.toBeNull()

    const again = await fetch(link, { redirect: 'manual' })
    expect(new URL(again.headers.get('location') ?? '').searchParams.get('error_code')).toBe('otp_expired')
  })

  it('refuses an address that already has an account, and callers without the service role', async () => {
    const { email } = await signedUpUser('invite-taken')
    const taken = await serviceClient().auth.admin.inviteUserByEmail(email)
    expect(taken.error?.status).toBe(422)
    expect(taken.error?.code).toBe('email_exists')
    expect(await mailsTo(email)).toEqual([])

    const anon = await client().auth.admin.inviteUserByEmail(uniqueEmail('invite-anon'))
    expect(anon.error?.status).toBe(403)
  })
})

describe('magic link', () => {
  it('mails an existing login a link that signs them in once, with type=magiclink, on redirect_to', async () => {
    const { email, user } = await signedUpUser('magic')
    const sb = client({ flowType: 'implicit' })
    const sent = await sb.auth.signInWithOtp({
      email,
      options: { shouldCreateUser: false, emailRedirectTo: `${siteUrl}/invite/xyz` },
    })
    expect(sent.error).toBeNull()

    const [mail] = await mailsTo(email)
    expect(mail?.subject).toBe('Your Magic Link')
    const link = mail?.links[0] ?? ''
    expect(new URL(link).searchParams.get('type')).toBe('magiclink')
    const opened = await fetch(link, { redirect: 'manual' })
    expect(opened.status).toBe(303)
    const landed = new URL(opened.headers.get('location') ?? '')
    expect(`${landed.origin}${landed.pathname}`).toBe(`${siteUrl}/invite/xyz`)
    const fragment = new URLSearchParams(landed.hash.slice(1))
    expect(fragment.get('type')).toBe('magiclink')
    const set = await client({ flowType: 'implicit' }).auth.setSession({
      access_token: fragment.get('access_token') ?? '',
      refresh_token: fragment.get('refresh_token') ?? '',
    })
    expect(set.error).toBeNull()
    expect(set.data.user?.id).toBe(user?.id)

    const again = await fetch(link, { redirect: 'manual' })
    expect(new URL(again.headers.get('location') ?? '').searchParams.get('error_code')).toBe('otp_expired')

    // One mail per address per max_frequency, as GoTrue limits recovery and magic links alike.
    const soon = await sb.auth.signInWithOtp({ email, options: { shouldCreateUser: false } })
    expect(soon.error?.status).toBe(429)
    expect(soon.error?.code).toBe('over_email_send_rate_limit')
    expect(await mailsTo(email)).toHaveLength(1)
  })

  it('PKCE: the link returns ?code=, which the client that asked exchanges for the session', async () => {
    const { email, user } = await signedUpUser('magic-pkce')
    const sb = client({ flowType: 'pkce' })
    const sent = await sb.auth.signInWithOtp({
      email,
      options: { shouldCreateUser: false, emailRedirectTo: `${siteUrl}/invite/pkce` },
    })
    expect(sent.error).toBeNull()
    const [mail] = await mailsTo(email)
    const opened = await fetch(mail?.links[0] ?? '', { redirect: 'manual' })
    const landed = new URL(opened.headers.get('location') ?? '')
    expect(`${landed.origin}${landed.pathname}`).toBe(`${siteUrl}/invite/pkce`)
    const code = landed.searchParams.get('code') ?? ''
    expect(code).not.toBe('')
    const { data, error } = await sb.auth.exchangeCodeForSession(code)
    expect(error).toBeNull()
    expect(data.user?.id).toBe(user?.id)
  })

  it('refuses an address without a login when asked not to create one', async () => {
    const email = uniqueEmail('magic-nobody')
    const refused = await client().auth.signInWithOtp({ email, options: { shouldCreateUser: false } })
    expect(refused.error?.status).toBe(422)
    expect(refused.error?.code).toBe('otp_disabled')
    expect(await mailsTo(email)).toEqual([])
  })
})
