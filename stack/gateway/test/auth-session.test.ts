// /auth/v1 sign-up, sign-in, tokens, refresh rotation and sign-out, driven through supabase-js.
import { AuthApiError, AuthWeakPasswordError, isAuthSessionMissingError } from '@supabase/supabase-js'
import { createRemoteJWKSet, jwtVerify, SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { LOCAL_JWT_SECRET, signHs256, stackConfig } from '../../src/config.ts'
import { loadKeys } from '../src/keys.ts'
import {
  anonKey,
  api,
  client,
  db,
  decodeJwt,
  fakeIp,
  rawFetch,
  signedUpUser,
  uniqueEmail,
} from './helpers.ts'

const CLAIMS = [
  'aal',
  'amr',
  'app_metadata',
  'aud',
  'email',
  'exp',
  'iat',
  'is_anonymous',
  'iss',
  'phone',
  'role',
  'session_id',
  'sub',
  'user_metadata',
]

describe('sign-up and password sign-in', () => {
  it('signs up with data as user_metadata and returns a session whose token has exactly the contract claims', async () => {
    const email = uniqueEmail('signup')
    const sb = client({ headers: { 'X-Forwarded-For': fakeIp() } })
    const { data, error } = await sb.auth.signUp({
      email,
      password: 'secret-password',
      options: { data: { full_name: 'Ada Lovelace' } },
    })
    expect(error).toBeNull()
    expect(data.user?.user_metadata).toEqual({ full_name: 'Ada Lovelace' })
    expect(data.user?.app_metadata).toEqual({ provider: 'email', providers: ['email'] })
    expect(data.user?.identities?.[0]?.provider).toBe('email')
    const session = data.session
    expect(session).not.toBeNull()
    expect(session?.token_type).toBe('bearer')
    expect(session?.expires_in).toBe(3600)
    const { header, payload } = decodeJwt(session?.access_token ?? '')
    expect(header).toMatchObject({ alg: 'ES256', kid: expect.any(String) })
    expect(Object.keys(payload).sort()).toEqual(CLAIMS)
    expect(payload).toMatchObject({
      sub: data.user?.id,
      aud: 'authenticated',
      role: 'authenticated',
      email,
      aal: 'aal1',
      is_anonymous: false,
      iss: `${api}/auth/v1`,
      user_metadata: { full_name: 'Ada Lovelace' },
    })
    expect(Number(payload.exp) - Number(payload.iat)).toBe(3600)
    const jwks = createRemoteJWKSet(new URL(`${api}/auth/v1/.well-known/jwks.json`))
    await expect(jwtVerify(session?.access_token ?? '', jwks)).resolves.toBeTruthy()
    const stored = await db().query('select 1 from auth.sessions where id = $1', [payload.session_id])
    expect(stored.rowCount).toBe(1)
  })

  it('refuses a second sign-up, a weak password and a malformed e-mail with GoTrue codes', async () => {
    const { email } = await signedUpUser('dup')
    const sb = client({ headers: { 'X-Forwarded-For': fakeIp() } })
    const again = await sb.auth.signUp({ email, password: 'secret-password' })
    expect(again.error).toBeInstanceOf(AuthApiError)
    expect(again.error).toMatchObject({
      status: 422,
      code: 'user_already_exists',
      message: 'User already registered',
    })
    const weak = await sb.auth.signUp({ email: uniqueEmail('weak'), password: '12345' })
    expect(weak.error).toBeInstanceOf(AuthWeakPasswordError)
    expect(weak.error).toMatchObject({ status: 422, code: 'weak_password', reasons: ['length'] })
    const bad = await sb.auth.signUp({ email: 'not-an-email', password: 'secret-password' })
    expect(bad.error).toMatchObject({ status: 400, code: 'validation_failed' })
  })

  it('answers a wrong password or an unknown e-mail with 400 invalid_credentials', async () => {
    const { email, password } = await signedUpUser('signin')
    const sb = client({ headers: { 'X-Forwarded-For': fakeIp() } })
    for (const attempt of [
      { email, password: 'wrong-password' },
      { email: uniqueEmail('nobody'), password },
    ]) {
      const { data, error } = await sb.auth.signInWithPassword(attempt)
      expect(data.session).toBeNull()
      expect(error).toMatchObject({
        status: 400,
        code: 'invalid_credentials',
        message: 'Invalid login credentials',
      })
    }
    const ok = await sb.auth.signInWithPassword({ email: email.toUpperCase(), password })
    expect(ok.error).toBeNull()
    expect(ok.data.user?.email).toBe(email)
  })

  it('uses the versioned error body with X-Supabase-Api-Version and the legacy one without', async () => {
    const body = JSON.stringify({ email: uniqueEmail('fmt'), password: 'whatever-pass' })
    const headers = { 'Content-Type': 'application/json', 'X-Forwarded-For': fakeIp() }
    const versioned = await rawFetch('/auth/v1/token?grant_type=password', {
      method: 'POST',
      body,
      headers: { ...headers, 'X-Supabase-Api-Version': '2024-01-01', Origin: 'http://127.0.0.1:3000' },
    })
    expect(versioned.status).toBe(400)
    expect(versioned.headers.get('x-supabase-api-version')).toBe('2024-01-01')
    expect(versioned.headers.get('access-control-expose-headers')).toContain('X-Supabase-Api-Version')
    expect(await versioned.json()).toEqual({
      code: 'invalid_credentials',
      message: 'Invalid login credentials',
    })
    const legacy = await rawFetch('/auth/v1/token?grant_type=password', { method: 'POST', body, headers })
    expect(await legacy.json()).toEqual({
      code: 400,
      error_code: 'invalid_credentials',
      msg: 'Invalid login credentials',
    })
    const malformed = await rawFetch('/auth/v1/signup', { method: 'POST', body: '{nope', headers })
    expect(malformed.status).toBe(400)
    expect(await malformed.json()).toMatchObject({ error_code: 'bad_json' })
  })

  it('requires the project API key on auth endpoints', async () => {
    const missing = await fetch(`${api}/auth/v1/settings`)
    expect(missing.status).toBe(401)
    const wrong = await fetch(`${api}/auth/v1/settings`, {
      headers: { apikey: signHs256({ role: 'anon' }, 'x'.repeat(40)) },
    })
    expect(wrong.status).toBe(401)
    const settings = await rawFetch('/auth/v1/settings')
    expect(await settings.json()).toMatchObject({
      external: { email: true, google: true },
      mailer_autoconfirm: true,
    })
  })
})

describe('the signed-in user', () => {
  it('rejects missing, forged, alg none, expired and unknown-session tokens on GET /user', async () => {
    const { session } = await signedUpUser('tokens')
    const { payload } = decodeJwt(session.access_token)
    const noToken = await rawFetch('/auth/v1/user')
    expect(noToken.status).toBe(401)
    expect(await noToken.json()).toMatchObject({ error_code: 'no_authorization' })
    const anon = await rawFetch('/auth/v1/user', { headers: { Authorization: `Bearer ${anonKey}` } })
    expect(anon.status).toBe(403)
    expect(await anon.json()).toMatchObject({ error_code: 'bad_jwt' })
    const keys = await loadKeys(stackConfig('test'))
    const forgedKey = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign'])
    const header = { alg: 'ES256', kid: decodeJwt(session.access_token).header.kid as string }
    const forged = await new SignJWT(payload).setProtectedHeader(header).sign(forgedKey.privateKey)
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.`
    const wrongSecret = await new SignJWT(payload)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(`${LOCAL_JWT_SECRET}-not`))
    const expired = await keys.signUserToken({ ...payload, exp: undefined, iat: undefined }, -10)
    for (const token of [forged, none, wrongSecret, expired]) {
      const response = await rawFetch('/auth/v1/user', { headers: { Authorization: `Bearer ${token}` } })
      expect(response.status).toBe(403)
      expect(await response.json()).toMatchObject({ error_code: 'bad_jwt' })
    }
    const ghost = await keys.signUserToken(
      { ...payload, session_id: crypto.randomUUID(), exp: undefined },
      600,
    )
    const ghostSb = client()
    const set = await ghostSb.auth.setSession({ access_token: ghost, refresh_token: 'unused-refresh' })
    expect(isAuthSessionMissingError(set.error)).toBe(true)
    const direct = await rawFetch('/auth/v1/user', {
      headers: { Authorization: `Bearer ${ghost}`, 'X-Supabase-Api-Version': '2024-01-01' },
    })
    expect(direct.status).toBe(403)
    expect(await direct.json()).toMatchObject({ code: 'session_not_found' })
  })

  it('merges user_metadata, deletes keys set to null, and never lets the user change app_metadata', async () => {
    const { sb, user } = await signedUpUser('meta')
    await sb.auth.updateUser({ data: { full_name: 'First', plan: 'x' } })
    const merged = await sb.auth.updateUser({ data: { plan: null, company: 'Acme' } })
    expect(merged.error).toBeNull()
    expect(merged.data.user?.user_metadata).toEqual({ full_name: 'First', company: 'Acme' })
    const session = (await sb.auth.getSession()).data.session
    const tamper = await rawFetch('/auth/v1/user', {
      method: 'PUT',
      headers: { Authorization: `Bearer ${session?.access_token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ app_metadata: { role: 'admin' } }),
    })
    expect(tamper.status).toBe(403)
    const meta = await db().query('select raw_app_meta_data from auth.users where id = $1', [user.id])
    expect(meta.rows[0].raw_app_meta_data).toEqual({ provider: 'email', providers: ['email'] })
    const refreshed = await sb.auth.refreshSession()
    expect(decodeJwt(refreshed.data.session?.access_token ?? '').payload.app_metadata).toEqual({
      provider: 'email',
      providers: ['email'],
    })
  })

  it('changes the password: the old one stops working and other sessions end', async () => {
    const { sb, email, password } = await signedUpUser('pw')
    const other = client({ headers: { 'X-Forwarded-For': fakeIp() } })
    await other.auth.signInWithPassword({ email, password })
    const same = await sb.auth.updateUser({ password })
    expect(same.error).toMatchObject({ status: 422, code: 'same_password' })
    const weak = await sb.auth.updateUser({ password: '123' })
    expect(weak.error).toMatchObject({ code: 'weak_password' })
    const changed = await sb.auth.updateUser({ password: 'new-secret-password' })
    expect(changed.error).toBeNull()
    expect((await sb.auth.getUser()).error).toBeNull()
    const otherUser = await other.auth.getUser()
    expect(isAuthSessionMissingError(otherUser.error)).toBe(true)
    const fresh = client({ headers: { 'X-Forwarded-For': fakeIp() } })
    expect((await fresh.auth.signInWithPassword({ email, password })).error?.code).toBe('invalid_credentials')
    expect((await fresh.auth.signInWithPassword({ email, password: 'new-secret-password' })).error).toBeNull()
  })
})

async function refresh(token: string) {
  const response = await rawFetch('/auth/v1/token?grant_type=refresh_token', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Supabase-Api-Version': '2024-01-01' },
    body: JSON.stringify({ refresh_token: token }),
  })
  return { status: response.status, body: (await response.json()) as Record<string, string> }
}

describe('refresh tokens', () => {
  it('rotates, tolerates a retry of the previous token, and revokes the session family on reuse', async () => {
    const { sb, session } = await signedUpUser('refresh')
    const first = session.refresh_token
    const rotated = await sb.auth.refreshSession()
    expect(rotated.error).toBeNull()
    const second = rotated.data.session?.refresh_token ?? ''
    expect(second).not.toBe(first)
    expect(decodeJwt(rotated.data.session?.access_token ?? '').payload.session_id).toBe(
      decodeJwt(session.access_token).payload.session_id,
    )
    const third = (await refresh(second)).body.refresh_token ?? ''
    expect(third).not.toBe(second)
    // The parent of the current token, presented again at once: a client that lost the answer.
    const retry = await refresh(second)
    expect(retry.status).toBe(200)
    expect(retry.body.refresh_token).toBe(third)
    // An older token presented again: stolen. The whole family is revoked.
    const reuse = await refresh(first)
    expect(reuse).toMatchObject({ status: 400, body: { code: 'refresh_token_already_used' } })
    expect(await refresh(third)).toMatchObject({ status: 400, body: { code: 'refresh_token_already_used' } })
  })

  it('answers unknown tokens and expired sessions with their codes', async () => {
    expect(await refresh('no-such-token')).toMatchObject({
      status: 400,
      body: { code: 'refresh_token_not_found' },
    })
    const { session } = await signedUpUser('expired')
    const sessionId = decodeJwt(session.access_token).payload.session_id
    await db().query(`update auth.sessions set not_after = now() - interval '1 minute' where id = $1`, [
      sessionId,
    ])
    expect(await refresh(session.refresh_token)).toMatchObject({
      status: 400,
      body: { code: 'session_expired' },
    })
    const sb = client()
    const viaClient = await sb.auth.refreshSession({ refresh_token: 'no-such-token' })
    expect(viaClient.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' })
  })
})

describe('sign-out scopes', () => {
  async function threeSessions() {
    const { sb, email, password } = await signedUpUser('logout')
    const second = client({ headers: { 'X-Forwarded-For': fakeIp() } })
    const third = client({ headers: { 'X-Forwarded-For': fakeIp() } })
    await second.auth.signInWithPassword({ email, password })
    await third.auth.signInWithPassword({ email, password })
    return [sb, second, third] as const
  }
  const alive = async (sb: ReturnType<typeof client>) => {
    const session = (await sb.auth.getSession()).data.session
    if (!session) return false
    const response = await rawFetch('/auth/v1/user', {
      headers: { Authorization: `Bearer ${session.access_token}` },
    })
    return response.status === 200
  }

  it('others keeps only this session; local ends only this one; global ends all', async () => {
    const [a, b, c] = await threeSessions()
    expect((await a.auth.signOut({ scope: 'others' })).error).toBeNull()
    expect([await alive(a), await alive(b), await alive(c)]).toEqual([true, false, false])

    const [d, e] = await threeSessions()
    const dSession = (await d.auth.getSession()).data.session
    const local = await rawFetch('/auth/v1/logout?scope=local', {
      method: 'POST',
      headers: { Authorization: `Bearer ${dSession?.access_token}` },
    })
    expect(local.status).toBe(204)
    expect([await alive(d), await alive(e)]).toEqual([false, true])
    expect(await refresh(dSession?.refresh_token ?? '')).toMatchObject({
      body: { code: 'refresh_token_not_found' },
    })

    const [f, g, h] = await threeSessions()
    expect((await f.auth.signOut({ scope: 'global' })).error).toBeNull()
    expect([await alive(g), await alive(h)]).toEqual([false, false])
    expect((await f.auth.getSession()).data.session).toBeNull()
  })
})
