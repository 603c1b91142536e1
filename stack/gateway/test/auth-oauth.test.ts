// Sign-in with Google through the sandbox consent page: implicit and PKCE flows, refusals, the
// redirect allow-list and forged state, following each redirect as a browser would.
import { describe, expect, it } from 'vitest'
import { api, client, db, decodeJwt, rawFetch, signedUpUser, siteUrl, uniqueEmail } from './helpers.ts'

const google = process.env.GOOGLE_OAUTH_BASE_URL ?? ''

/** Opens the authorize URL, answers the sandbox consent page, and returns where auth finally sends the browser. */
async function throughGoogle(authorizeUrl: string, email: string, decision: 'allow' | 'deny' = 'allow') {
  const start = await fetch(authorizeUrl, { redirect: 'manual' })
  expect(start.status).toBe(302)
  const consentUrl = new URL(start.headers.get('location') ?? '')
  expect(consentUrl.origin).toBe(new URL(google).origin)
  const page = await fetch(consentUrl)
  expect(page.status).toBe(200)
  expect(await page.text()).toContain('Choose an account')
  const form = new URLSearchParams({
    client_id: consentUrl.searchParams.get('client_id') ?? '',
    redirect_uri: consentUrl.searchParams.get('redirect_uri') ?? '',
    scope: consentUrl.searchParams.get('scope') ?? '',
    state: consentUrl.searchParams.get('state') ?? '',
    email,
    name: 'Grace Hopper',
    decision,
  })
  const approved = await fetch(`${google}/o/oauth2/v2/auth/approve`, {
    method: 'POST',
    body: form,
    redirect: 'manual',
  })
  expect(approved.status).toBe(302)
  const callback = approved.headers.get('location') ?? ''
  expect(callback.startsWith(`${api}/auth/v1/callback?`)).toBe(true)
  const done = await fetch(callback, { redirect: 'manual' })
  expect(done.status).toBe(302)
  return new URL(done.headers.get('location') ?? '')
}

describe('Google sign-in', () => {
  it('implicit flow: returns to redirect_to with the session in the fragment and creates a Google user', async () => {
    const sb = client({ flowType: 'implicit' })
    const email = uniqueEmail('google')
    const { data } = await sb.auth.signInWithOAuth({
      provider: 'google',
      options: { redirectTo: `${siteUrl}/dashboard`, skipBrowserRedirect: true },
    })
    const landed = await throughGoogle(data.url ?? '', email)
    expect(`${landed.origin}${landed.pathname}`).toBe(`${siteUrl}/dashboard`)
    const fragment = new URLSearchParams(landed.hash.slice(1))
    expect(fragment.get('token_type')).toBe('bearer')
    expect(Number(fragment.get('expires_in'))).toBe(3600)
    const { data: set, error } = await sb.auth.setSession({
      access_token: fragment.get('access_token') ?? '',
      refresh_token: fragment.get('refresh_token') ?? '',
    })
    expect(error).toBeNull()
    expect(set.user?.email).toBe(email)
    expect(set.user?.app_metadata).toMatchObject({ provider: 'google', providers: ['google'] })
    expect(set.user?.user_metadata.full_name).toBe('Grace Hopper')
    expect(decodeJwt(fragment.get('access_token') ?? '').payload.amr).toEqual([
      { method: 'oauth', timestamp: expect.any(Number) },
    ])
    // A second sign-in finds the same user through the Google identity.
    const again = await throughGoogle(data.url ?? '', email)
    const second = decodeJwt(new URLSearchParams(again.hash.slice(1)).get('access_token') ?? '').payload
    expect(second.sub).toBe(set.user?.id)
  })

  it('PKCE flow: returns ?code= that exchangeCodeForSession turns into a session, once', async () => {
    const sb = client({ flowType: 'pkce' })
    const email = uniqueEmail('pkce')
    const { data } = await sb.auth.signInWithOAuth({
      provider: 'google',
      options: { redirectTo: `${siteUrl}/dashboard`, skipBrowserRedirect: true },
    })
    const authorize = new URL(data.url ?? '')
    expect(authorize.searchParams.get('code_challenge_method')).toBe('s256')
    const landed = await throughGoogle(authorize.toString(), email)
    expect(landed.hash).toBe('')
    const code = landed.searchParams.get('code') ?? ''
    expect(code).not.toBe('')
    const flowId = landed.searchParams.get('sb_flow_id') ?? undefined
    const exchanged = await sb.auth.exchangeCodeForSession(code, flowId ? { flowId } : undefined)
    expect(exchanged.error).toBeNull()
    expect(exchanged.data.user?.email).toBe(email)
    expect((await sb.auth.getUser()).data.user?.email).toBe(email)
    const replay = await rawFetch('/auth/v1/token?grant_type=pkce', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ auth_code: code, code_verifier: 'x'.repeat(43) }),
    })
    expect(replay.status).toBe(404)
    expect(await replay.json()).toMatchObject({ error_code: 'flow_state_not_found' })
  })

  it('PKCE flow: a wrong code verifier is refused', async () => {
    const sb = client({ flowType: 'pkce' })
    const { data } = await sb.auth.signInWithOAuth({
      provider: 'google',
      options: { skipBrowserRedirect: true },
    })
    const landed = await throughGoogle(data.url ?? '', uniqueEmail('verifier'))
    const response = await rawFetch('/auth/v1/token?grant_type=pkce', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ auth_code: landed.searchParams.get('code'), code_verifier: 'y'.repeat(43) }),
    })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error_code: 'bad_code_verifier' })
  })

  it('links Google to an existing e-mail account instead of creating a second user', async () => {
    const { user, email } = await signedUpUser('link')
    const sb = client()
    const { data } = await sb.auth.signInWithOAuth({
      provider: 'google',
      options: { skipBrowserRedirect: true },
    })
    const landed = await throughGoogle(data.url ?? '', email)
    const token = new URLSearchParams(landed.hash.slice(1)).get('access_token') ?? ''
    const { payload } = decodeJwt(token)
    expect(payload.sub).toBe(user.id)
    expect((payload.app_metadata as { providers: string[] }).providers.sort()).toEqual(['email', 'google'])
    const identities = await db().query(
      'select provider from auth.identities where user_id = $1 order by provider',
      [user.id],
    )
    expect(identities.rows.map((r) => r.provider)).toEqual(['email', 'google'])
  })

  it('reports a refusal at Google as error, error_code and error_description in query and fragment', async () => {
    const sb = client()
    const { data } = await sb.auth.signInWithOAuth({
      provider: 'google',
      options: { redirectTo: `${siteUrl}/login`, skipBrowserRedirect: true },
    })
    const landed = await throughGoogle(data.url ?? '', uniqueEmail('deny'), 'deny')
    expect(landed.pathname).toBe('/login')
    for (const params of [landed.searchParams, new URLSearchParams(landed.hash.slice(1))]) {
      expect(params.get('error')).toBe('access_denied')
      expect(params.get('error_code')).toBe('access_denied')
      expect(params.get('error_description')).toBeTruthy()
      expect(params.get('access_token')).toBeNull()
    }
  })

  it('sends a redirect_to outside the allow-list to the site URL, and refuses forged state', async () => {
    const sb = client()
    const { data } = await sb.auth.signInWithOAuth({
      provider: 'google',
      options: { redirectTo: 'https://evil.example/steal', skipBrowserRedirect: true },
    })
    const landed = await throughGoogle(data.url ?? '', uniqueEmail('allow'))
    expect(landed.origin).toBe(new URL(siteUrl).origin)
    expect(new URLSearchParams(landed.hash.slice(1)).get('access_token')).toBeTruthy()

    const forged = await fetch(`${api}/auth/v1/callback?code=abc&state=not-a-state`, { redirect: 'manual' })
    const target = new URL(forged.headers.get('location') ?? '')
    expect(target.origin).toBe(new URL(siteUrl).origin)
    expect(target.searchParams.get('error_code')).toBe('bad_oauth_state')
    expect(target.searchParams.get('access_token')).toBeNull()

    const unknown = await fetch(`${api}/auth/v1/authorize?provider=github`, { redirect: 'manual' })
    expect(unknown.status).toBe(400)
    expect(await unknown.json()).toMatchObject({ error_code: 'validation_failed' })
  })

  it('the sandbox refuses an unregistered redirect_uri and a code used twice', async () => {
    const bad = await fetch(
      `${google}/o/oauth2/v2/auth?client_id=x&redirect_uri=https://evil.example&response_type=code`,
    )
    expect(bad.status).toBe(401)
    const token = await fetch(`${google}/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: 'nope',
        client_id: 'x',
        client_secret: 'y',
      }),
    })
    expect(token.status).toBe(401)
  })
})
