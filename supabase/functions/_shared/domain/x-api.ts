// X API v2 through the customer's own developer app (official X accounts), as the connect routes
// and the runner both speak it: the sealed credentials' shape, OAuth 2.0 PKCE helpers and token
// calls (confidential client: Basic auth), the rate-limit headers, and what an error answer means
// for a send. The fetch is passed in, so Deno, Node and tests run this unchanged.

/** What an official X account needs: read and send DMs, read users, and a refresh token. */
export const X_OFFICIAL_SCOPES = [
  'dm.read',
  'dm.write',
  'tweet.read',
  'users.read',
  'offline.access',
] as const

/** Production's API unless X_API_BASE_URL says otherwise (the local stack points it at the X sandbox). */
export const DEFAULT_X_API_BASE_URL = 'https://api.x.com'

/** The sealed document of an official X account (social_account_credentials.ciphertext). */
export interface XOfficialCredentials {
  v: 1
  platform: 'twitter'
  connection: 'official'
  clientId: string
  clientSecret: string
  accessToken: string
  refreshToken: string
  /** When the access token expires (ms since the epoch). */
  expiresAt: number
  scopes: string[]
}

export interface XApiClient {
  apiBaseUrl: string
  fetch: typeof fetch
}

export interface XTokens {
  access_token: string
  refresh_token?: string
  expires_in: number
  scope: string
  token_type: string
}

export interface RateLimit {
  limit: number
  remaining: number
  /** When the window resets (ms since the epoch). */
  resetAt: number
}

/**
 * x-rate-limit-* of an answer; a spent 24-hour DM limit (the user's, or the app's across all its
 * users) wins, the later reset first: nothing goes before it.
 */
export function rateLimitOf(headers: Headers): RateLimit | null {
  const read = (prefix: string) => {
    const limit = Number(headers.get(`${prefix}-limit`))
    const remaining = Number(headers.get(`${prefix}-remaining`))
    const reset = Number(headers.get(`${prefix}-reset`))
    if (!headers.has(`${prefix}-reset`) || !Number.isFinite(remaining) || !Number.isFinite(reset)) return null
    return { limit, remaining, resetAt: reset * 1000 }
  }
  const window = read('x-rate-limit')
  const spentDaily = [read('x-user-limit-24hour'), read('x-app-limit-24hour')]
    .filter((limit): limit is RateLimit => limit !== null && limit.remaining <= 0)
    .sort((a, b) => b.resetAt - a.resetAt)
  return spentDaily[0] ?? window
}

export function basicAuthorization(clientId: string, clientSecret: string): string {
  const pair = `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`
  return `Basic ${btoa(pair)}`
}

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')

/** A random URL-safe string from `bytes` random bytes (state and code verifier). */
export function randomToken(bytes = 48): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)))
}

/** PKCE S256: BASE64URL(SHA-256(verifier)). */
export async function pkceChallenge(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))))
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('')
}

export type TokenAnswer = { ok: true; tokens: XTokens } | { ok: false; status: number; error: string }

/** POST /2/oauth2/token (or /revoke) as a confidential client. */
export async function xTokenCall(
  client: XApiClient,
  app: { clientId: string; clientSecret: string },
  path: '/2/oauth2/token' | '/2/oauth2/revoke',
  form: Record<string, string>,
): Promise<TokenAnswer> {
  const response = await client.fetch(`${client.apiBaseUrl}${path}`, {
    method: 'POST',
    headers: {
      authorization: basicAuthorization(app.clientId, app.clientSecret),
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(form).toString(),
  })
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>
  if (!response.ok)
    return {
      ok: false,
      status: response.status,
      error: String(body.error_description ?? body.error ?? response.status),
    }
  return { ok: true, tokens: body as unknown as XTokens }
}

export type ApiAnswer<T> =
  | { ok: true; status: number; data: T; rate: RateLimit | null }
  | { ok: false; status: number; detail: string; rate: RateLimit | null }

/** One user-context call; the answer's JSON `data` or X's problem detail, with the rate limit. */
export async function xApiCall<T>(
  client: XApiClient,
  accessToken: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  signal?: AbortSignal,
): Promise<ApiAnswer<T>> {
  const response = await client.fetch(`${client.apiBaseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${accessToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(signal ? { signal } : {}),
  })
  const rate = rateLimitOf(response.headers)
  const parsed = (await response.json().catch(() => ({}))) as Record<string, unknown>
  if (!response.ok) {
    const errors = parsed.errors as { message?: string; detail?: string }[] | undefined
    const detail = String(parsed.detail ?? errors?.[0]?.message ?? errors?.[0]?.detail ?? response.statusText)
    return { ok: false, status: response.status, detail, rate }
  }
  return { ok: true, status: response.status, data: parsed as T, rate }
}

/**
 * What a refused DM means, in the runner's terms (the same stop signals as the browser path): the
 * lead cannot be messaged (skip it), the account is rate limited (wait until the reset), its token
 * is not accepted (refresh once), X blocks the account (stop it), or X failed (retry later).
 */
export type DmFailure =
  | 'cannot_message'
  | 'rate_limited'
  | 'unauthorized'
  | 'automation_block'
  | 'locked'
  | 'bad_request'
  | 'server'

export function dmFailureOf(status: number, detail: string): DmFailure {
  if (status === 401) return 'unauthorized'
  if (status === 429) return 'rate_limited'
  if (status >= 500) return 'server'
  if (status === 403) {
    if (
      /cannot send messages to this user|not permitted to send|privacy|message requests from verified/i.test(
        detail,
      )
    )
      return 'cannot_message'
    if (/locked/i.test(detail)) return 'locked'
    return 'automation_block'
  }
  return status === 400 ? 'bad_request' : 'server'
}
