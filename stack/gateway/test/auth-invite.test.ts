// The Auth admin invite (service role only): a mail through the local outbox whose link confirms the
// address once, signs the person in with type=invite and lands on redirect_to; a taken address is 422.
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
