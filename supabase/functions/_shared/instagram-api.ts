// Instagram API with Instagram Login, as the functions call it: the consent URL, the code's
// exchange for a short-lived token and that for a long-lived one (60 days), its refresh, the
// profile, and the account's webhook subscription. Three hosts in production (www.instagram.com,
// api.instagram.com, graph.instagram.com); the local stack points all three at its Meta sandbox.
// No import of env.ts: the runner imports this file too (the token refresh), and it has no Deno.
type Env = (name: string) => string | undefined

function requireEnv(name: string, env: Env): string {
  const value = env(name)?.trim()
  if (!value) throw new Error(`${name} is not set`)
  return value
}

export const GRAPH_VERSION = 'v23.0'

/** What Reachflow's automations need: the profile, DMs, and comments with their private replies. */
export const INSTAGRAM_SCOPES = [
  'instagram_business_basic',
  'instagram_business_manage_messages',
  'instagram_business_manage_comments',
] as const

/** The webhook fields an official account is subscribed to. */
export const WEBHOOK_FIELDS = ['comments', 'messages'] as const

export interface InstagramConfig {
  appId: string
  appSecret: string
  loginUrl: string
  oauthUrl: string
  graphUrl: string
  redirectUri: string
}

export function instagramConfig(env: Env): InstagramConfig {
  const supabaseUrl = requireEnv('SUPABASE_URL', env).replace(/\/+$/, '')
  return {
    appId: requireEnv('INSTAGRAM_APP_ID', env),
    appSecret: requireEnv('INSTAGRAM_APP_SECRET', env),
    loginUrl: env('INSTAGRAM_LOGIN_URL')?.trim() || 'https://www.instagram.com',
    oauthUrl: env('INSTAGRAM_OAUTH_URL')?.trim() || 'https://api.instagram.com',
    graphUrl: graphUrlOf(env),
    redirectUri: `${supabaseUrl}/functions/v1/instagram-official/callback`,
  }
}

/** The Graph host alone (no app credentials needed): for calls made with an account's own token. */
export function graphUrlOf(env: Env): string {
  return env('INSTAGRAM_GRAPH_URL')?.trim() || 'https://graph.instagram.com'
}

/** An error answer of Meta's: Graph's {error:{message,code,error_subcode}} or the OAuth host's {error_message,code}. */
export class MetaApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | null,
    readonly subcode: number | null,
    message: string,
  ) {
    super(message)
  }

  /** The token is expired, revoked or the app was removed: only connecting again helps. */
  get tokenInvalid(): boolean {
    return this.code === 190 || this.code === 102
  }
}

async function call<T>(fetcher: typeof fetch, url: string, init?: RequestInit): Promise<T> {
  let response: Response
  try {
    response = await fetcher(url, { ...init, signal: AbortSignal.timeout(20_000) })
  } catch (error) {
    throw new MetaApiError(0, null, null, `Instagram could not be reached: ${(error as Error).message}`)
  }
  const text = await response.text()
  let body: Record<string, unknown> = {}
  try {
    body = JSON.parse(text) as Record<string, unknown>
  } catch {
    // not JSON: answered below with the status
  }
  if (!response.ok) {
    const graph = body.error as { message?: string; code?: number; error_subcode?: number } | undefined
    throw new MetaApiError(
      response.status,
      graph?.code ?? (typeof body.code === 'number' ? body.code : null),
      graph?.error_subcode ?? null,
      graph?.message ?? (body.error_message as string | undefined) ?? `Instagram answered ${response.status}`,
    )
  }
  return body as T
}

export function authorizeUrl(config: InstagramConfig, state: string): string {
  const url = new URL('/oauth/authorize', config.loginUrl)
  url.searchParams.set('client_id', config.appId)
  url.searchParams.set('redirect_uri', config.redirectUri)
  url.searchParams.set('response_type', 'code')
  url.searchParams.set('scope', INSTAGRAM_SCOPES.join(','))
  url.searchParams.set('state', state)
  return url.toString()
}

export interface LongLivedToken {
  accessToken: string
  expiresAt: Date
  permissions: string[]
}

/** Code → short-lived token (one hour) → long-lived token (60 days). */
export async function exchangeCode(
  config: InstagramConfig,
  code: string,
  fetcher: typeof fetch,
  now: Date,
): Promise<LongLivedToken> {
  const short = await call<{
    data?: { access_token: string; permissions?: string }[]
    access_token?: string
    permissions?: string[] | string
  }>(fetcher, new URL('/oauth/access_token', config.oauthUrl).toString(), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: config.appId,
      client_secret: config.appSecret,
      grant_type: 'authorization_code',
      redirect_uri: config.redirectUri,
      code: code.replace(/#_$/, ''),
    }),
  })
  // Meta documents both shapes: {data:[{access_token, permissions:"a,b"}]} and a flat object
  const first = short.data?.[0] ?? short
  const granted = first.permissions ?? ''
  const permissions = Array.isArray(granted) ? granted : granted.split(',').filter(Boolean)
  if (!first.access_token) throw new MetaApiError(502, null, null, 'Instagram returned no access token')
  const long = await longLived(config, first.access_token, fetcher)
  return {
    accessToken: long.access_token,
    expiresAt: new Date(now.getTime() + long.expires_in * 1000),
    permissions,
  }
}

async function longLived(config: InstagramConfig, shortToken: string, fetcher: typeof fetch) {
  const url = new URL('/access_token', config.graphUrl)
  url.searchParams.set('grant_type', 'ig_exchange_token')
  url.searchParams.set('client_secret', config.appSecret)
  url.searchParams.set('access_token', shortToken)
  return await call<{ access_token: string; expires_in: number }>(fetcher, url.toString())
}

export async function refreshToken(
  config: Pick<InstagramConfig, 'graphUrl'>,
  token: string,
  fetcher: typeof fetch,
  now: Date,
): Promise<{ accessToken: string; expiresAt: Date }> {
  const url = new URL('/refresh_access_token', config.graphUrl)
  url.searchParams.set('grant_type', 'ig_refresh_token')
  url.searchParams.set('access_token', token)
  const body = await call<{ access_token: string; expires_in: number }>(fetcher, url.toString())
  return { accessToken: body.access_token, expiresAt: new Date(now.getTime() + body.expires_in * 1000) }
}

export interface InstagramProfile {
  user_id: string
  username: string
  name?: string
  account_type: string
}

export async function getProfile(
  config: InstagramConfig,
  token: string,
  fetcher: typeof fetch,
): Promise<InstagramProfile> {
  const url = new URL(`/${GRAPH_VERSION}/me`, config.graphUrl)
  url.searchParams.set('fields', 'user_id,username,name,account_type')
  return await call<InstagramProfile>(fetcher, url.toString(), {
    headers: { authorization: `Bearer ${token}` },
  })
}

/** Subscribes (or, with `on` false, unsubscribes) the account's webhook fields to the app. */
export async function setSubscription(
  config: Pick<InstagramConfig, 'graphUrl'>,
  token: string,
  on: boolean,
  fetcher: typeof fetch,
): Promise<void> {
  const url = new URL(`/${GRAPH_VERSION}/me/subscribed_apps`, config.graphUrl)
  if (on) url.searchParams.set('subscribed_fields', WEBHOOK_FIELDS.join(','))
  await call(fetcher, url.toString(), {
    method: on ? 'POST' : 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  })
}

/** A post, reel or story of the account's own, as the automations' post picker shows it. */
export interface InstagramMedia {
  id: string
  caption?: string
  media_type?: string
  media_product_type?: string
  permalink?: string
  timestamp?: string
}

/** GET /me/media: the account's latest posts and reels, newest first (one page of up to `limit`). */
export async function listMedia(
  config: Pick<InstagramConfig, 'graphUrl'>,
  token: string,
  limit: number,
  fetcher: typeof fetch,
): Promise<InstagramMedia[]> {
  const url = new URL(`/${GRAPH_VERSION}/me/media`, config.graphUrl)
  url.searchParams.set('fields', 'id,caption,media_type,media_product_type,permalink,timestamp')
  url.searchParams.set('limit', String(limit))
  const body = await call<{ data?: InstagramMedia[] }>(fetcher, url.toString(), {
    headers: { authorization: `Bearer ${token}` },
  })
  return body.data ?? []
}

/** To whom a message goes: a person (inside their messaging window) or a comment (its private reply). */
export type Recipient = { id: string } | { comment_id: string }

/** Send API: POST /me/messages; answers the message id. */
export async function sendMessage(
  config: Pick<InstagramConfig, 'graphUrl'>,
  token: string,
  recipient: Recipient,
  text: string,
  fetcher: typeof fetch,
  tag?: 'HUMAN_AGENT',
): Promise<string> {
  const body = await call<{ message_id: string }>(
    fetcher,
    new URL(`/${GRAPH_VERSION}/me/messages`, config.graphUrl).toString(),
    {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      // a tagged message goes as MESSAGE_TAG; any other is the answer to the person's message
      body: JSON.stringify({
        recipient,
        messaging_type: tag ? 'MESSAGE_TAG' : 'RESPONSE',
        message: { text },
        ...(tag ? { tag } : {}),
      }),
    },
  )
  return body.message_id
}

/** A public reply under a comment: POST /{comment-id}/replies; answers the reply's id. */
export async function replyToComment(
  config: Pick<InstagramConfig, 'graphUrl'>,
  token: string,
  commentId: string,
  text: string,
  fetcher: typeof fetch,
): Promise<string> {
  const url = new URL(`/${GRAPH_VERSION}/${encodeURIComponent(commentId)}/replies`, config.graphUrl)
  url.searchParams.set('message', text)
  const body = await call<{ id: string }>(fetcher, url.toString(), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  })
  return body.id
}

/**
 * The User Profile API: the name and username behind an Instagram-scoped id. Instagram answers it
 * only for someone who has written to the account (their consent); anyone else is an error.
 */
export async function getUserProfile(
  config: Pick<InstagramConfig, 'graphUrl'>,
  token: string,
  igsid: string,
  fetcher: typeof fetch,
): Promise<{ id: string; name?: string; username?: string }> {
  const url = new URL(`/${GRAPH_VERSION}/${encodeURIComponent(igsid)}`, config.graphUrl)
  url.searchParams.set('fields', 'name,username')
  return await call(fetcher, url.toString(), { headers: { authorization: `Bearer ${token}` } })
}
