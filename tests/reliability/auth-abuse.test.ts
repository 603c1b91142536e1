// Authentication abuse against the product's surfaces (data API, api and admin functions, storage,
// auth): forged, expired, alg none, wrong-kid, key-confusion and revoked tokens; refresh-token
// reuse ending the session everywhere; password guessing that must not lock the owner out; a customer
// making themselves admin or giving themselves a plan. The gateway's own token checks are in
// stack/gateway/test/{keys,rest-auth,auth-session}.test.ts; these go through the real product.
import { generateKeyPair, SignJWT } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadKeys } from '../../stack/gateway/src/keys.ts'
import { client, decodeJwt, fakeIp } from '../../stack/gateway/test/helpers.ts'
import { signHs256, stackConfig } from '../../stack/src/config.ts'
import { customer, db, invoke } from '../functions/helpers.ts'
import { call } from './probes.ts'
import type { Customer } from './tenants.ts'

let victimUser: Customer

beforeAll(async () => {
  victimUser = await customer('authvictim')
})

/** The surfaces a stolen or forged token would be used on, and what each must answer. */
const surfaces = (token: string) => [
  {
    name: 'rest',
    run: () => call('/rest/v1/user_profiles?select=*', { token }),
    refused: (s: number) => s === 401,
  },
  {
    name: 'api',
    run: () => call('/functions/v1/api/user/credits', { token }),
    refused: (s: number) => s === 401,
  },
  {
    name: 'admin',
    run: () => call('/functions/v1/admin/stats', { token }),
    refused: (s: number) => s === 401,
  },
  {
    name: 'storage',
    run: () => call('/storage/v1/object/list/avatars', { method: 'POST', token, body: { prefix: '' } }),
    refused: (s: number) => s === 400 || s === 401 || s === 403,
  },
  {
    name: 'auth',
    run: () => call('/auth/v1/user', { token }),
    refused: (s: number) => s === 401 || s === 403,
  },
]

async function expectRefusedEverywhere(label: string, token: string) {
  for (const surface of surfaces(token)) {
    const reply = await surface.run()
    expect(
      surface.refused(reply.status),
      `${label} on ${surface.name}: ${reply.status} ${reply.text.slice(0, 120)}`,
    ).toBe(true)
    expect(reply.text, `${label} on ${surface.name}`).not.toContain(victimUser.email)
  }
}

describe('forged and stale tokens', () => {
  it('refuses forged, expired, alg none, wrong-kid and key-confusion tokens on every surface', async () => {
    const real = decodeJwt(victimUser.session.access_token).payload
    const now = Math.floor(Date.now() / 1000)
    const claims = { ...real, iat: now, exp: now + 3600 }
    const admin = { ...claims, app_metadata: { provider: 'email', role: 'admin' }, role: 'service_role' }
    const keys = await loadKeys(stackConfig())
    const other = await generateKeyPair('ES256')
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
    const publicJwk = JSON.stringify(keys.jwks.keys[0])
    const tokens: Record<string, string> = {
      'HS256 with a guessed secret': signHs256(admin, 'this-is-not-the-projects-jwt-secret-at-all'),
      'expired ES256 from the real key': await keys.signUserToken(real, -120),
      'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${b64(admin)}.`,
      'alg none, empty signature dropped': `${b64({ alg: 'none' })}.${b64(admin)}`,
      'unknown kid': await new SignJWT(claims)
        .setProtectedHeader({ alg: 'ES256', kid: 'attacker' })
        .sign(other.privateKey),
      'the real kid, another key': await new SignJWT(claims)
        .setProtectedHeader({ alg: 'ES256', kid: String(keys.jwks.keys[0]?.kid) })
        .sign(other.privateKey),
      'HS256 keyed with the public JWK (key confusion)': signHs256(admin, publicJwk),
      'the signature of another token': `${victimUser.session.access_token.split('.').slice(0, 2).join('.')}.${signHs256(admin).split('.')[2]}`,
      'payload swapped under a real signature': (() => {
        const [header, , signature] = victimUser.session.access_token.split('.')
        return `${header}.${b64(admin)}.${signature}`
      })(),
      garbage: 'not.a.token',
    }
    for (const [label, token] of Object.entries(tokens)) await expectRefusedEverywhere(label, token)
  })

  it('a signed-out session is refused by functions, storage and auth at once', async () => {
    const user = await customer('signedout')
    const token = user.session.access_token
    expect((await call('/functions/v1/api/user/credits', { token })).status).toBe(200)
    expect((await user.sb.auth.signOut({ scope: 'global' })).error).toBeNull()
    expect((await call('/functions/v1/api/user/credits', { token })).status).toBe(401)
    expect((await call('/functions/v1/admin/stats', { token })).status).toBe(401)
    expect((await call('/auth/v1/user', { token })).status).toBe(403)
    // The data API checks the signature and expiry only, as PostgREST does on hosted Supabase: the
    // token keeps working there until it expires (1 hour), and only for that user's own rows.
    const rest = await call('/rest/v1/user_profiles?select=id', { token })
    expect(rest.json).toEqual([{ id: user.id }])
  })

  it('reusing a rotated refresh token revokes the whole family: neither thief nor owner can refresh', async () => {
    const user = await customer('reuse')
    const first = user.session.refresh_token
    const rotated = await call('/auth/v1/token?grant_type=refresh_token', {
      method: 'POST',
      body: { refresh_token: first },
    })
    expect(rotated.status).toBe(200)
    const { access_token, refresh_token } = rotated.json as { access_token: string; refresh_token: string }
    const second = await call('/auth/v1/token?grant_type=refresh_token', {
      method: 'POST',
      body: { refresh_token },
    })
    expect(second.status).toBe(200)
    const latest = (second.json as { refresh_token: string }).refresh_token
    // The first token again, long after its rotation: a thief replaying it.
    await new Promise((resolve) => setTimeout(resolve, 50))
    const replay = await call('/auth/v1/token?grant_type=refresh_token', {
      method: 'POST',
      body: { refresh_token: first },
    })
    if (replay.status === 200) {
      // Inside the reuse interval the gateway answers with the current token (GoTrue's grace): not a theft.
      expect(decodeJwt((replay.json as { access_token: string }).access_token).payload.session_id).toBe(
        decodeJwt(access_token).payload.session_id,
      )
      return
    }
    expect(replay.status).toBe(400)
    expect(replay.json).toMatchObject({ error_code: 'refresh_token_already_used' })
    const afterTheft = await call('/auth/v1/token?grant_type=refresh_token', {
      method: 'POST',
      body: { refresh_token: latest },
    })
    expect(afterTheft.status).toBe(400)
    // As with GoTrue, access tokens already issued stay valid until they expire (at most 1 hour).
  })
})

describe('password guessing', () => {
  // Hosted Supabase Auth limits sign-in per client address and never locks the account itself
  // (supabase/auth internal/api/api.go: /token behind limitHandler keyed on the client address;
  // limit by IP and IP+account, never lock the account for other sources).
  it('one e-mail guessed from one address is stopped after 10 failures; its owner still signs in elsewhere', async () => {
    const user = await customer('guessed')
    const guesser = fakeIp()
    const attempt = (password: string, ip: string) =>
      call('/auth/v1/token?grant_type=password', {
        method: 'POST',
        body: { email: user.email, password },
        headers: { 'X-Forwarded-For': ip },
      })
    const statuses: number[] = []
    for (let i = 0; i < 12; i++) statuses.push((await attempt(`wrong-${i}`, guesser)).status)
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400))
    expect(statuses.slice(10)).toEqual([429, 429])
    const right = await attempt(user.password, guesser)
    expect(right.status).toBe(429)
    expect(right.json).toMatchObject({ error_code: 'over_request_rate_limit' })
    expect((await attempt(user.password, fakeIp())).status).toBe(200)
  })
})

describe('privilege escalation by a customer', () => {
  it('user_metadata.role = admin, app_metadata at sign-up or in PUT /user: never an admin', async () => {
    const user = await customer('wannabe')
    expect((await user.sb.auth.updateUser({ data: { role: 'admin', plan: 'enterprise' } })).error).toBeNull()
    const forbiddenUpdate = await call('/auth/v1/user', {
      method: 'PUT',
      token: user.session.access_token,
      body: { app_metadata: { role: 'admin' } },
    })
    expect(forbiddenUpdate.status).toBe(403)
    const signUp = await client({ headers: { 'X-Forwarded-For': fakeIp() } }).auth.signUp({
      email: `sneaky-${Date.now()}@reliability.test`,
      password: 'secret-password',
      options: { data: { role: 'admin' } },
    })
    for (const session of [(await user.sb.auth.refreshSession()).data.session, signUp.data.session]) {
      expect(session).toBeTruthy()
      const token = session?.access_token ?? ''
      expect(decodeJwt(token).payload.app_metadata).not.toHaveProperty('role')
      expect((await call('/functions/v1/admin/stats', { token })).status).toBe(403)
      expect(
        (await call('/rest/v1/rpc/admin_queue_overview', { method: 'POST', token, body: {} })).status,
      ).toBeGreaterThanOrEqual(400)
      expect((await call('/rest/v1/system_logs?select=id&limit=1', { token })).json).toEqual([])
    }
  })

  it('a customer cannot give themselves a plan, a status or more accounts', async () => {
    const user = await customer('freeloader')
    const token = user.session.access_token
    const attempts = [
      call(`/rest/v1/user_profiles?id=eq.${user.id}`, {
        method: 'PATCH',
        token,
        body: { subscription_plan: 'enterprise', subscription_status: 'active' },
      }),
      call('/rest/v1/subscriptions', {
        method: 'POST',
        token,
        body: { user_id: user.id, status: 'active', plan_type: 'enterprise', accounts_purchased: 100 },
      }),
      call(`/rest/v1/subscriptions?user_id=eq.${user.id}`, {
        method: 'PATCH',
        token,
        body: { accounts_purchased: 100 },
      }),
      call('/rest/v1/payments', {
        method: 'POST',
        token,
        body: { user_id: user.id, amount: 100, status: 'succeeded' },
      }),
      call(`/rest/v1/social_accounts?user_id=eq.${user.id}`, {
        method: 'PATCH',
        token,
        body: { daily_message_limit: 100000, warmup_phase: 5 },
      }),
      call('/rest/v1/stripe_events', {
        method: 'POST',
        token,
        body: { id: 'evt_forged', type: 'checkout.session.completed' },
      }),
    ]
    for (const reply of await Promise.all(attempts)) {
      expect(reply.status, reply.text).toBeGreaterThanOrEqual(400)
      expect(reply.status, reply.text).toBeLessThan(500)
    }
    const { rows } = await db().query(
      `select p.subscription_plan, p.subscription_status, (select count(*)::int from public.subscriptions s where s.user_id = p.id) subs
         from public.user_profiles p where p.id = $1`,
      [user.id],
    )
    expect(rows[0]).toMatchObject({ subs: 0 })
    expect(rows[0]?.subscription_plan).not.toBe('enterprise')
    const credits = await invoke(user.sb, 'api/user/credits')
    expect(credits.body).toMatchObject({ plan: { type: 'free', accountLimit: 1 } })
  })
})
