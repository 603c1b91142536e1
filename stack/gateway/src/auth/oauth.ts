// Sign-in with Google as GoTrue runs it: GET /authorize sends the browser to Google (locally the
// sandbox consent page) with a signed state; Google sends it back to GET /callback with a code that
// is exchanged for the Google profile; the browser then returns to redirect_to with the session in
// the fragment (implicit flow) or with ?code= that POST /token?grant_type=pkce exchanges.
import { createHash, randomUUID } from 'node:crypto'
import { jwtVerify, SignJWT } from 'jose'
import { googleClient } from '../../../sandbox/google/client.ts'
import { sendJson } from '../http.ts'
import { type AuthCall, readBody, stringField } from './context.ts'
import { API_VERSION, AuthError, validationFailed } from './errors.ts'
import { chooseRedirect, siteUrl, withParams } from './redirects.ts'
import { assertNotBanned, startSession, tokenResponse, withTransaction } from './sessions.ts'
import { findUserIdByEmail, insertIdentity, insertUser, loadUser, normalizeEmail } from './users.ts'

const STATE_SECONDS = 600
const FLOW_STATE_SECONDS = 300

interface OAuthState {
  provider: string
  referrer: string
  flow_state_id?: string
}

interface GoogleProfile {
  sub: string
  email?: string
  email_verified?: boolean
  name?: string
  picture?: string
}

/** A redirect that carries an error both in the query and in the fragment, as GoTrue does. */
class RedirectError extends Error {
  constructor(
    readonly target: string,
    readonly error: string,
    readonly errorCode: string,
    description: string,
  ) {
    super(description)
  }
}

const googleBase = () => (process.env.GOOGLE_OAUTH_BASE_URL ?? '').replace(/\/$/, '')

export async function authorize(call: AuthCall): Promise<void> {
  const { ctx, request } = call
  const params = request.url.searchParams
  if (params.get('provider') !== 'google' || !googleBase()) {
    throw validationFailed('Unsupported provider: provider is not enabled')
  }
  const referrer = chooseRedirect(ctx.config, params.get('redirect_to'))
  const challenge = params.get('code_challenge')
  const method = (params.get('code_challenge_method') ?? '').toLowerCase()
  let flowStateId: string | undefined
  if (challenge) {
    if (method !== 's256' && method !== 'plain') throw validationFailed('Unsupported code_challenge_method')
    flowStateId = randomUUID()
    await ctx.adminPool.query(
      `insert into auth.flow_state (id, auth_code, code_challenge_method, code_challenge, provider_type,
         created_at, updated_at, authentication_method)
       values ($1, $2, $3, $4, 'google', now(), now(), 'oauth')`,
      [flowStateId, randomUUID(), method, challenge],
    )
  }
  const state = await new SignJWT({ provider: 'google', referrer, flow_state_id: flowStateId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setExpirationTime(Math.floor(Date.now() / 1000) + STATE_SECONDS)
    .sign(new TextEncoder().encode(ctx.config.jwtSecret))
  const scopes = [
    'openid',
    'email',
    'profile',
    ...(params.get('scopes') ?? '').split(/[\s,]+/).filter(Boolean),
  ]
  const target = new URL(`${googleBase()}/o/oauth2/v2/auth`)
  target.search = new URLSearchParams({
    client_id: googleClient().clientId,
    redirect_uri: `${ctx.config.apiUrl}/auth/v1/callback`,
    response_type: 'code',
    scope: [...new Set(scopes)].join(' '),
    state,
  }).toString()
  request.res.writeHead(302, { Location: target.toString() })
  request.res.end()
}

async function readState(call: AuthCall, raw: string): Promise<OAuthState> {
  try {
    const { payload } = await jwtVerify(raw, new TextEncoder().encode(call.ctx.config.jwtSecret), {
      algorithms: ['HS256'],
    })
    if (payload.provider !== 'google' || typeof payload.referrer !== 'string') throw new Error('bad state')
    return payload as unknown as OAuthState
  } catch {
    throw new RedirectError(
      siteUrl(call.ctx.config),
      'invalid_request',
      'bad_oauth_state',
      'OAuth callback with invalid state',
    )
  }
}

async function fetchGoogleProfile(
  call: AuthCall,
  code: string,
  referrer: string,
): Promise<{ profile: GoogleProfile; token: string }> {
  const failed = (description: string) =>
    new RedirectError(referrer, 'server_error', 'unexpected_failure', description)
  const { clientId, clientSecret } = googleClient()
  const exchange = await fetch(`${googleBase()}/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uri: `${call.ctx.config.apiUrl}/auth/v1/callback`,
    }),
    signal: AbortSignal.timeout(10_000),
  }).catch(() => undefined)
  if (!exchange?.ok) throw failed('Unable to exchange external code')
  const { access_token: token } = (await exchange.json()) as { access_token?: string }
  if (!token) throw failed('Unable to exchange external code')
  const info = await fetch(`${googleBase()}/oauth2/v3/userinfo`, {
    headers: { Authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(10_000),
  }).catch(() => undefined)
  if (!info?.ok) throw failed('Error getting user profile from external provider')
  const profile = (await info.json()) as GoogleProfile
  if (!profile.sub) throw failed('Error getting user profile from external provider')
  if (!profile.email) throw failed('Error getting user email from external provider')
  return { profile, token }
}

/** The user for a Google profile: by identity, else by verified e-mail (linked), else a new one. */
async function userForProfile(call: AuthCall, profile: GoogleProfile): Promise<string> {
  const email = normalizeEmail(profile.email ?? '')
  const identityData = {
    iss: googleBase(),
    sub: profile.sub,
    provider_id: profile.sub,
    email,
    email_verified: profile.email_verified === true,
    phone_verified: false,
    name: profile.name ?? '',
    full_name: profile.name ?? '',
    picture: profile.picture ?? '',
    avatar_url: profile.picture ?? '',
  }
  return withTransaction(call.ctx.adminPool, async (db) => {
    const linked = await db.query<{ user_id: string }>(
      `select user_id from auth.identities where provider = 'google' and provider_id = $1`,
      [profile.sub],
    )
    const existing = linked.rows[0]?.user_id ?? (await findUserIdByEmail(db, email))
    if (existing) {
      if (!linked.rows[0] && profile.email_verified !== true) {
        throw new RedirectError(
          '',
          'access_denied',
          'email_exists',
          'Email address already registered by another user',
        )
      }
      await insertIdentity(db, existing, 'google', profile.sub, identityData)
      return existing
    }
    return insertUser(db, {
      email,
      provider: 'google',
      providerId: profile.sub,
      identityData,
      userMetadata: identityData,
      emailConfirmed: profile.email_verified === true,
    })
  })
}

async function completeCallback(call: AuthCall): Promise<string> {
  const params = call.request.url.searchParams
  const state = await readState(call, params.get('state') ?? '')
  const referrer = state.referrer
  const providerError = params.get('error')
  if (providerError) {
    throw new RedirectError(
      referrer,
      providerError === 'access_denied' ? 'access_denied' : 'server_error',
      providerError.slice(0, 64),
      params.get('error_description') ?? 'The provider refused the sign-in',
    )
  }
  const code = params.get('code')
  if (!code)
    throw new RedirectError(
      referrer,
      'invalid_request',
      'bad_oauth_callback',
      'OAuth callback with missing authorization code',
    )
  const { profile, token } = await fetchGoogleProfile(call, code, referrer)
  let userId: string
  try {
    userId = await userForProfile(call, profile)
  } catch (error) {
    if (error instanceof RedirectError)
      throw new RedirectError(referrer, error.error, error.errorCode, error.message)
    throw error
  }
  const user = await loadUser(call.ctx.adminPool, userId)
  if (!user) throw new RedirectError(referrer, 'server_error', 'unexpected_failure', 'User not found')
  try {
    assertNotBanned(user)
  } catch {
    throw new RedirectError(referrer, 'access_denied', 'user_banned', 'User is banned')
  }
  if (state.flow_state_id) {
    const { rows } = await call.ctx.adminPool.query<{ auth_code: string }>(
      `update auth.flow_state set user_id = $2, provider_access_token = $3, auth_code_issued_at = now(), updated_at = now()
        where id = $1 and user_id is null returning auth_code`,
      [state.flow_state_id, userId, token],
    )
    const authCode = rows[0]?.auth_code
    if (!authCode)
      throw new RedirectError(
        referrer,
        'invalid_request',
        'flow_state_not_found',
        'invalid flow state, no valid flow state found',
      )
    return withParams(referrer, 'query', { code: authCode })
  }
  const session = await withTransaction(call.ctx.adminPool, async (db) => {
    const started = await startSession(db, userId, 'oauth', call.meta)
    return tokenResponse(call.ctx, db, userId, started.sessionId, started.refreshToken)
  })
  return withParams(referrer, 'hash', {
    access_token: session.access_token,
    expires_at: String(session.expires_at),
    expires_in: String(session.expires_in),
    provider_token: token,
    refresh_token: session.refresh_token,
    token_type: 'bearer',
  })
}

export async function callback(call: AuthCall): Promise<void> {
  let location: string
  try {
    location = await completeCallback(call)
  } catch (error) {
    if (!(error instanceof RedirectError)) throw error
    const values = { error: error.error, error_code: error.errorCode, error_description: error.message }
    location = withParams(withParams(error.target, 'query', values), 'hash', values)
  }
  call.request.res.writeHead(302, { Location: location, 'Cache-Control': 'no-store' })
  call.request.res.end()
}

export async function pkceGrant(call: AuthCall): Promise<void> {
  const body = await readBody(call.request)
  const authCode = stringField(body, 'auth_code') ?? ''
  const verifier = stringField(body, 'code_verifier') ?? ''
  if (!authCode || !verifier)
    throw validationFailed('invalid request: both auth code and code verifier should be non-empty')
  const response = await withTransaction(call.ctx.adminPool, async (db) => {
    const { rows } = await db.query<{
      id: string
      user_id: string | null
      code_challenge: string
      code_challenge_method: string
      authentication_method: string
      expired: boolean
    }>(
      `select id, user_id, code_challenge, code_challenge_method, authentication_method,
              coalesce(auth_code_issued_at, created_at) < now() - make_interval(secs => $2) as expired
         from auth.flow_state where auth_code = $1 and auth_code_issued_at is not null for update`,
      [authCode, FLOW_STATE_SECONDS],
    )
    const flow = rows[0]
    if (!flow?.user_id)
      throw new AuthError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found')
    if (flow.expired) {
      await db.query('delete from auth.flow_state where id = $1', [flow.id])
      return new AuthError(400, 'flow_state_expired', 'invalid flow state, flow state has expired')
    }
    const expected =
      flow.code_challenge_method === 's256'
        ? createHash('sha256').update(verifier).digest('base64url')
        : verifier
    if (expected !== flow.code_challenge) {
      throw new AuthError(
        400,
        'bad_code_verifier',
        'code challenge does not match previously saved code verifier',
      )
    }
    await db.query('delete from auth.flow_state where id = $1', [flow.id])
    const user = await loadUser(db, flow.user_id)
    if (!user) throw new AuthError(404, 'user_not_found', 'User not found')
    assertNotBanned(user)
    const started = await startSession(db, flow.user_id, flow.authentication_method, call.meta)
    return tokenResponse(call.ctx, db, flow.user_id, started.sessionId, started.refreshToken)
  })
  if (response instanceof AuthError) throw response
  sendJson(call.request.res, 200, response, { 'X-Supabase-Api-Version': API_VERSION })
}
