// Connecting an Instagram professional account through Instagram's own OAuth: the signed-in
// customer asks for a consent URL (its state is one-use, expires, and is bound to them and to the
// browser they asked from), Instagram sends the browser back to /callback, which forwards code and
// state to the web app's page. That page shows which Reachflow workspace the account is being added
// to and, once confirmed, hands them to /finish with the customer's session and the browser's key:
// only then is the code turned into a long-lived token, the account checked (professional, every
// permission granted), subscribed to the webhooks and added as an official account. A consent link
// passed to someone else ends in a browser without that session and key: nothing is connected.
// Nothing the customer can read ever holds the token.
import {
  BROWSER_KEY_PATTERN,
  boundStateHash,
  type InstagramConnected,
  type InstagramConnectStarted,
} from '@reachflow/domain'
import type { Caller } from '../_shared/auth.ts'
import { sealOfficialInstagram } from '../_shared/credentials.ts'
import { keyringFromEnv } from '../_shared/crypto.ts'
import { DatabaseError, fromDbError } from '../_shared/db-errors.ts'
import { requireEnv } from '../_shared/env.ts'
import { badRequest, forbidden, jsonResponse, unprocessable } from '../_shared/errors.ts'
import {
  authorizeUrl,
  exchangeCode,
  getProfile,
  INSTAGRAM_SCOPES,
  instagramConfig,
  MetaApiError,
  setSubscription,
} from '../_shared/instagram-api.ts'
import { parseWith, readJson, z } from '../_shared/validation.ts'
import type { OfficialDeps } from './deps.ts'

/** How long a consent may take, from the click on Connect to Instagram's redirect back. */
export const STATE_LIFETIME_MS = 10 * 60_000
const PROFESSIONAL = ['BUSINESS', 'MEDIA_CREATOR']

export const CONNECT_ERRORS = {
  stateUnknown:
    'This Instagram connection expired, was already used, or was started in another browser, so nothing was connected. Start again from Add Account in the browser you use for Reachflow.',
  otherCustomer:
    'This Instagram connection was started by another Reachflow account, so nothing was connected. Start again from Add Account.',
  denied: 'Instagram access was not granted, so nothing was connected.',
  scopes:
    'Reachflow needs every permission it asks for (profile, messages and comments). Connect again and keep them all switched on.',
  personal: (username: string) =>
    `@${username} is a personal Instagram account. Switch it to a professional account (Business or Creator) in Instagram's settings, then connect again.`,
  instagram: (message: string) => `Instagram refused the connection: ${message}`,
} as const

const STATE = /^[A-Za-z0-9_-]{43}$/
const browserKey = z.string().regex(BROWSER_KEY_PATTERN, 'Reload Reachflow and start again from Add Account.')
const startBody = z.object({ browserKey })
const finishBody = z.object({
  state: z.string().max(200),
  code: z.string().min(1).max(2000).optional(),
  error: z.string().max(200).optional(),
  browserKey,
})

/** POST /connect {browserKey}: a consent URL for the signed-in customer, one use, bound to this browser. */
export async function startConnect(caller: Caller, req: Request, deps: OfficialDeps): Promise<Response> {
  const input = parseWith(startBody, await readJson(req))
  const config = instagramConfig(deps.env)
  const state = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
  const { error } = await deps.service().rpc('begin_instagram_connect', {
    p_user_id: caller.id,
    p_state_hash: await boundStateHash(state, input.browserKey),
    p_expires_at: new Date(deps.now().getTime() + STATE_LIFETIME_MS).toISOString(),
  })
  if (error) throw fromDbError(error)
  return jsonResponse({ url: authorizeUrl(config, state) } satisfies InstagramConnectStarted)
}

/** The web app's page that finishes a connect in the browser that started it. */
export const finishPage = (deps: OfficialDeps) =>
  new URL('/connect/instagram/callback', requireEnv('SITE_URL', deps.env))

/**
 * GET /callback?code&state (or ?error&state): Instagram's redirect after the consent screen, passed
 * on to the web app's page; nothing is used up or connected here, where no session is known.
 */
export function forwardCallback(url: URL, deps: OfficialDeps): Response {
  const target = finishPage(deps)
  for (const name of ['code', 'state', 'error']) {
    const value = url.searchParams.get(name)
    if (value) target.searchParams.set(name, value.slice(0, 2000))
  }
  return new Response(null, {
    status: 303,
    headers: { location: target.toString(), 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
  })
}

/**
 * POST /finish {state, code | error, browserKey}: the signed-in customer confirms on the web app's
 * page. The state is found only with the key of the browser that started it, and is used up
 * whatever happens next, so a callback can never be replayed.
 */
export async function finishConnect(caller: Caller, req: Request, deps: OfficialDeps): Promise<Response> {
  const input = parseWith(finishBody, await readJson(req))
  const consumed = STATE.test(input.state)
    ? await deps.service().rpc('consume_instagram_connect', {
        p_state_hash: await boundStateHash(input.state, input.browserKey),
      })
    : { data: null, error: null }
  if (consumed.error) throw new DatabaseError(consumed.error)
  if (!consumed.data) throw badRequest(CONNECT_ERRORS.stateUnknown)
  if (consumed.data !== caller.id) throw forbidden(CONNECT_ERRORS.otherCustomer)
  if (input.error || !input.code) throw badRequest(CONNECT_ERRORS.denied)
  try {
    return jsonResponse((await connectAccount(caller.id, input.code, deps)) satisfies InstagramConnected)
  } catch (error) {
    if (error instanceof MetaApiError) throw unprocessable(CONNECT_ERRORS.instagram(error.message))
    throw error
  }
}

async function connectAccount(userId: string, code: string, deps: OfficialDeps): Promise<InstagramConnected> {
  const config = instagramConfig(deps.env)
  const token = await exchangeCode(config, code, deps.fetch, deps.now())
  if (!INSTAGRAM_SCOPES.every((scope) => token.permissions.includes(scope)))
    throw unprocessable(CONNECT_ERRORS.scopes)
  const profile = await getProfile(config, token.accessToken, deps.fetch)
  if (!PROFESSIONAL.includes(profile.account_type))
    throw unprocessable(CONNECT_ERRORS.personal(profile.username))
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
