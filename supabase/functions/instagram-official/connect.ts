// Connecting an Instagram professional account through Instagram's own OAuth: the signed-in
// customer asks for a consent URL (its state is one-use, expires, and is bound to them), Instagram
// sends the browser back to the callback, which turns the code into a long-lived token, checks the
// account (professional, every permission granted), subscribes it to the webhooks and adds it as an
// official account. The browser then lands on the Accounts tab with the result in the URL (no
// secret in it); nothing the customer can read ever holds the token.
import type { Caller } from '../_shared/auth.ts'
import { sealOfficialInstagram } from '../_shared/credentials.ts'
import { keyringFromEnv } from '../_shared/crypto.ts'
import { DatabaseError, fromDbError } from '../_shared/db-errors.ts'
import { requireEnv } from '../_shared/env.ts'
import { HttpError, jsonResponse } from '../_shared/errors.ts'
import {
  authorizeUrl,
  exchangeCode,
  getProfile,
  INSTAGRAM_SCOPES,
  instagramConfig,
  MetaApiError,
  setSubscription,
} from '../_shared/instagram-api.ts'
import type { OfficialDeps } from './deps.ts'

/** How long a consent may take, from the click on Connect to Instagram's redirect back. */
export const STATE_LIFETIME_MS = 10 * 60_000
const PROFESSIONAL = ['BUSINESS', 'MEDIA_CREATOR']

export const CONNECT_ERRORS = {
  stateUnknown: 'This Instagram connection expired or was already used. Start again from Add Account.',
  denied: 'Instagram access was not granted, so nothing was connected.',
  scopes:
    'Reachflow needs every permission it asks for (profile, messages and comments). Connect again and keep them all switched on.',
  personal: (username: string) =>
    `@${username} is a personal Instagram account. Switch it to a professional account (Business or Creator) in Instagram's settings, then connect again.`,
  instagram: (message: string) => `Instagram refused the connection: ${message}`,
} as const

const hex = (bytes: ArrayBuffer) =>
  [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('')

export async function stateHash(state: string): Promise<string> {
  return hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(state)))
}

/** POST /connect: a consent URL for the signed-in customer, with a fresh one-use state. */
export async function startConnect(caller: Caller, deps: OfficialDeps): Promise<Response> {
  const config = instagramConfig(deps.env)
  const state = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
  const { error } = await deps.service().rpc('begin_instagram_connect', {
    p_user_id: caller.id,
    p_state_hash: await stateHash(state),
    p_expires_at: new Date(deps.now().getTime() + STATE_LIFETIME_MS).toISOString(),
  })
  if (error) throw fromDbError(error)
  return jsonResponse({ url: authorizeUrl(config, state) })
}

/** Where the browser goes after the callback: the Accounts tab, told what happened. */
function resultRedirect(deps: OfficialDeps, outcome: { username: string } | { error: string }): Response {
  const target = new URL('/dashboard', requireEnv('SITE_URL', deps.env))
  target.searchParams.set('tab', 'social-accounts')
  if ('error' in outcome) {
    target.searchParams.set('instagram', 'error')
    target.searchParams.set('message', outcome.error)
  } else {
    target.searchParams.set('instagram', 'connected')
    target.searchParams.set('username', outcome.username)
  }
  return new Response(null, {
    status: 303,
    headers: { location: target.toString(), 'cache-control': 'no-store' },
  })
}

/** GET /callback?code&state (or ?error&state): Instagram's redirect after the consent screen. */
export async function finishConnect(url: URL, deps: OfficialDeps): Promise<Response> {
  const state = url.searchParams.get('state') ?? ''
  // the state is used up whatever happens next: a callback can never be replayed
  const consumed = /^[A-Za-z0-9_-]{43}$/.test(state)
    ? await deps.service().rpc('consume_instagram_connect', { p_state_hash: await stateHash(state) })
    : { data: null, error: null }
  if (consumed.error) throw new DatabaseError(consumed.error)
  const userId = consumed.data
  if (!userId) return resultRedirect(deps, { error: CONNECT_ERRORS.stateUnknown })
  if (url.searchParams.get('error')) return resultRedirect(deps, { error: CONNECT_ERRORS.denied })
  const code = url.searchParams.get('code')
  if (!code) return resultRedirect(deps, { error: CONNECT_ERRORS.denied })
  try {
    return resultRedirect(deps, await connectAccount(userId, code, deps))
  } catch (error) {
    if (error instanceof MetaApiError)
      return resultRedirect(deps, { error: CONNECT_ERRORS.instagram(error.message) })
    if (error instanceof HttpError && error.status < 500)
      return resultRedirect(deps, { error: error.message })
    throw error
  }
}

async function connectAccount(
  userId: string,
  code: string,
  deps: OfficialDeps,
): Promise<{ username: string } | { error: string }> {
  const config = instagramConfig(deps.env)
  const token = await exchangeCode(config, code, deps.fetch, deps.now())
  if (!INSTAGRAM_SCOPES.every((scope) => token.permissions.includes(scope)))
    return { error: CONNECT_ERRORS.scopes }
  const profile = await getProfile(config, token.accessToken, deps.fetch)
  if (!PROFESSIONAL.includes(profile.account_type))
    return { error: CONNECT_ERRORS.personal(profile.username) }
  // without the subscription no comment or message would ever reach the automations
  await setSubscription(config, token.accessToken, true, deps.fetch)
  const sealed = await sealOfficialInstagram(
    {
      v: 1,
      platform: 'instagram',
      connection: 'official',
      accessToken: token.accessToken,
      expiresAt: token.expiresAt.toISOString(),
      permissions: token.permissions,
      instagramUserId: profile.user_id,
    },
    await keyringFromEnv(deps.env),
  )
  const { error } = await deps.service().rpc('create_instagram_official_account', {
    p_user_id: userId,
    p_username: profile.username,
    p_platform_user_id: profile.user_id,
    p_credentials_key_id: sealed.keyId,
    p_credentials: sealed.ciphertext,
    p_token_expires_at: token.expiresAt.toISOString(),
  })
  if (error) throw fromDbError(error)
  return { username: profile.username }
}
