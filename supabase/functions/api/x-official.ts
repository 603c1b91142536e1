// Official X accounts: connecting one through the customer's own X developer app (OAuth 2.0 with
// PKCE), and revoking its token when it is disconnected. The client id and secret are sealed with
// the code verifier in a one-use, expiring request bound to the customer and to the browser that
// started it (at most 5 per customer within a request's 10 minutes, stored before X is called so
// the cap bounds the calls to X too), then checked with X; X sends the browser back to the web app's callback page, which
// hands code, state and the browser's key to /callback here with the customer's session: the code
// is exchanged, the granted scopes and /2/users/me checked, and the account created (or
// reconnected) with its sealed tokens. No secret, token or verifier leaves.
import {
  BROWSER_KEY_PATTERN,
  boundStateHash,
  pkceChallenge,
  randomToken,
  X_OFFICIAL_SCOPES,
  type XOfficialConnected,
  type XOfficialCredentials,
  type XOfficialSetup,
  type XOfficialStarted,
  xApiCall,
  xApiUsageOf,
  xTokenCall,
} from '@reachflow/domain'
import { sealCredentials } from '../_shared/credentials.ts'
import { decryptSecret, encryptSecret, keyIdOf, keyringFromEnv } from '../_shared/crypto.ts'
import { DatabaseError, fromDbError } from '../_shared/db-errors.ts'
import { badRequest, forbidden, HttpError, jsonResponse, unprocessable } from '../_shared/errors.ts'
import { fromJson } from '../_shared/json.ts'
import { parseWith, readJson, z } from '../_shared/validation.ts'
import { ACCOUNT_COLUMNS, accountView } from './account-view.ts'
import type { ApiDeps, CallContext } from './deps.ts'
import { xBaseUrlOf } from './social-accounts.ts'
import { xApiClientOf } from './x-official-tokens.ts'

/** How long a started connect may take before the customer must start again. */
const REQUEST_MINUTES = 10

export const X_OFFICIAL_MESSAGES = {
  clientId: 'Enter the OAuth 2.0 Client ID from your X app’s “Keys and tokens” page',
  clientSecret: 'Enter the OAuth 2.0 Client Secret from your X app’s “Keys and tokens” page',
  keysRejected:
    'X did not accept this Client ID and Client Secret. Copy both again from your app’s “Keys and tokens” page (OAuth 2.0 Client ID and Client Secret).',
  unreachable: 'X could not be reached. Please try again in a minute.',
  expired:
    'This X connection has expired, was already used, or was started in another browser, so nothing was connected. Start again from “Add account” in the browser you use for Reachflow.',
  otherCustomer:
    'This X connection was started by another Reachflow account, so nothing was connected. Start again from “Add account”.',
  denied: 'You chose Cancel on X, so no account was connected.',
  codeRejected: 'X did not accept the authorization. Start again from “Add account”.',
  scopes: (missing: string[]) =>
    `X did not grant ${missing.join(', ')}. Allow every permission on X's screen (and enable Direct Messages for your app) to send DMs through the X API.`,
} as const

const browserKey = z
  .string()
  .regex(BROWSER_KEY_PATTERN, 'Reload Reachflow and start again from “Add account”.')

const startBody = z.object({
  browserKey,
  clientId: z
    .string({ error: X_OFFICIAL_MESSAGES.clientId })
    .trim()
    .regex(/^[A-Za-z0-9_:-]{10,100}$/, X_OFFICIAL_MESSAGES.clientId),
  clientSecret: z
    .string({ error: X_OFFICIAL_MESSAGES.clientSecret })
    .trim()
    .regex(/^[A-Za-z0-9_-]{20,100}$/, X_OFFICIAL_MESSAGES.clientSecret),
})

const callbackBody = z.object({
  state: z.string().min(16).max(200),
  code: z.string().min(1).max(2000).optional(),
  error: z.string().max(200).optional(),
  browserKey,
})

const sealedRequest = z.object({ codeVerifier: z.string(), clientId: z.string(), clientSecret: z.string() })

/** The page of the web app X sends the customer back to: the customer registers it in their X app. */
export function xRedirectUri(deps: ApiDeps): string {
  const site = (deps.env('SITE_URL') ?? '').trim().replace(/\/+$/, '')
  if (!site) throw new Error('SITE_URL is not set')
  return `${site}/connect/x/callback`
}

/** A call to X that could not be made at all is X's outage, not the customer's mistake. */
async function reachX<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch {
    throw new HttpError(502, X_OFFICIAL_MESSAGES.unreachable)
  }
}

export async function xOfficialSetup(_req: Request, { deps }: CallContext): Promise<Response> {
  return jsonResponse({
    redirectUri: xRedirectUri(deps),
    scopes: [...X_OFFICIAL_SCOPES],
  } satisfies XOfficialSetup)
}

export async function startXOfficial(
  req: Request,
  { caller, deps, service }: CallContext,
): Promise<Response> {
  const { browserKey: key, ...input } = parseWith(startBody, await readJson(req))
  const state = randomToken(32)
  const codeVerifier = randomToken(64)
  const redirectUri = xRedirectUri(deps)
  const sealed = await encryptSecret(
    JSON.stringify({ codeVerifier, ...input }),
    await keyringFromEnv(deps.env),
  )
  const db = service()
  const now = deps.now()
  // a customer's stale requests are of no use to anyone; the used ones still count towards the cap
  const cleared = await db
    .from('x_oauth_requests')
    .delete()
    .eq('user_id', caller.id)
    .lt('expires_at', now.toISOString())
  if (cleared.error) throw new DatabaseError(cleared.error)
  // stored first: the cap on starts within a request's lifetime (a trigger) then also bounds the
  // calls to X below, whatever X answers
  const saved = await db
    .from('x_oauth_requests')
    .insert({
      user_id: caller.id,
      state_hash: await boundStateHash(state, key),
      key_id: keyIdOf(sealed),
      sealed,
      redirect_uri: redirectUri,
      expires_at: new Date(now.getTime() + REQUEST_MINUTES * 60_000).toISOString(),
    })
    .select('id')
    .single()
  if (saved.error) throw fromDbError(saved.error)
  const spend = async () => {
    const spent = await db
      .from('x_oauth_requests')
      .update({ used_at: now.toISOString() })
      .eq('id', saved.data.id)
    if (spent.error) throw new DatabaseError(spent.error)
  }

  const client = xApiClientOf(deps)
  // X checks a confidential client's id and secret on every token call; revoking a token that does
  // not exist proves them without touching any user (a wrong pair is 401 unauthorized_client)
  const check = await reachX(() =>
    xTokenCall(client, input, '/2/oauth2/revoke', {
      token: randomToken(24),
      token_type_hint: 'access_token',
    }),
  ).catch(async (error: unknown) => {
    await spend()
    throw error
  })
  if (!check.ok) {
    await spend()
    if (check.status === 401 || check.status === 403) throw unprocessable(X_OFFICIAL_MESSAGES.keysRejected)
    throw new HttpError(502, X_OFFICIAL_MESSAGES.unreachable)
  }

  const authorize = new URL('/i/oauth2/authorize', xBaseUrlOf(deps.env))
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: input.clientId,
    redirect_uri: redirectUri,
    scope: X_OFFICIAL_SCOPES.join(' '),
    state,
    code_challenge: await pkceChallenge(codeVerifier),
    code_challenge_method: 'S256',
  }).toString()
  return jsonResponse({ authorizeUrl: authorize.toString(), redirectUri } satisfies XOfficialStarted, 201)
}

export async function finishXOfficial(
  req: Request,
  { caller, deps, service }: CallContext,
): Promise<Response> {
  const input = parseWith(callbackBody, await readJson(req))
  const db = service()
  // one use: claiming it marks it used, whatever happens next, also when it is another customer's
  // found only with the key of the browser that started it
  const claimed = await db
    .from('x_oauth_requests')
    .update({ used_at: deps.now().toISOString() })
    .eq('state_hash', await boundStateHash(input.state, input.browserKey))
    .is('used_at', null)
    .gt('expires_at', deps.now().toISOString())
    .select('user_id, sealed, redirect_uri')
    .maybeSingle()
  if (claimed.error) throw new DatabaseError(claimed.error)
  const pending = claimed.data
  if (!pending) throw badRequest(X_OFFICIAL_MESSAGES.expired)
  if (pending.user_id !== caller.id) throw forbidden(X_OFFICIAL_MESSAGES.otherCustomer)
  if (input.error || !input.code) throw badRequest(X_OFFICIAL_MESSAGES.denied)

  const keyring = await keyringFromEnv(deps.env)
  const request = sealedRequest.parse(JSON.parse(await decryptSecret(pending.sealed, keyring)))
  const app = { clientId: request.clientId, clientSecret: request.clientSecret }
  const client = xApiClientOf(deps)
  const exchanged = await reachX(() =>
    xTokenCall(client, app, '/2/oauth2/token', {
      grant_type: 'authorization_code',
      code: input.code ?? '',
      redirect_uri: pending.redirect_uri,
      code_verifier: request.codeVerifier,
    }),
  )
  if (!exchanged.ok) throw unprocessable(X_OFFICIAL_MESSAGES.codeRejected)
  const tokens = exchanged.tokens
  const revoke = () =>
    xTokenCall(client, app, '/2/oauth2/revoke', { token: tokens.access_token }).catch(() => undefined)

  const granted = tokens.scope.split(' ')
  const missing = X_OFFICIAL_SCOPES.filter((s) => !granted.includes(s))
  if (missing.length > 0 || !tokens.refresh_token) {
    await revoke()
    throw unprocessable(X_OFFICIAL_MESSAGES.scopes(missing.length ? missing : ['offline.access']))
  }
  const me = await reachX(() =>
    xApiCall<{ data: { id: string; username: string } }>(client, tokens.access_token, 'GET', '/2/users/me'),
  )
  if (!me.ok) {
    await revoke()
    throw new HttpError(502, X_OFFICIAL_MESSAGES.unreachable)
  }

  const credentials: XOfficialCredentials = {
    v: 1,
    platform: 'twitter',
    connection: 'official',
    ...app,
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    expiresAt: deps.now().getTime() + tokens.expires_in * 1000,
    scopes: granted,
  }
  const sealed = await sealCredentials(credentials, keyring)
  const { data, error } = await db.rpc('connect_official_x_account', {
    p_user_id: caller.id,
    p_username: me.data.data.username,
    p_platform_user_id: me.data.data.id,
    p_credentials_key_id: sealed.keyId,
    p_credentials: sealed.ciphertext,
  })
  if (error) {
    await revoke()
    throw fromDbError(error)
  }
  const saved = fromJson(
    z.object({ id: z.string(), reconnected: z.boolean() }),
    data,
    'connect_official_x_account',
  )
  // /2/users/me was billed to the customer's app like any call the runner makes
  const usage = xApiUsageOf({
    method: 'GET',
    path: '/2/users/me',
    ok: true,
    data: me.data,
    selfId: me.data.data.id,
  })
  if (usage) {
    const counted = await db.rpc('record_x_api_usage', {
      p_account_id: saved.id,
      p_kind: usage.kind,
      p_unit_keys: usage.keys,
    })
    if (counted.error) throw new DatabaseError(counted.error)
  }
  const row = await caller.db.from('social_accounts').select(ACCOUNT_COLUMNS).eq('id', saved.id).single()
  if (row.error) throw new DatabaseError(row.error)
  return jsonResponse(
    { ...accountView(row.data, undefined), reconnected: saved.reconnected } satisfies XOfficialConnected,
    saved.reconnected ? 200 : 201,
  )
}
