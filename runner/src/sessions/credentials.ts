// An account's sign-in data as the functions sealed it, and the browser session the runner saved:
// read from social_account_credentials, decrypted with the shared keyring, checked for shape.
// The decrypted values live only in memory for the session being opened; they are never logged.
import type { XOfficialCredentials } from '@reachflow/domain'
import { decryptSecret, encryptSecret, type Keyring } from '../crypto.ts'
import type { Queryable } from '../db.ts'
import type { SeenSignedIn, SessionCookie } from '../platforms/types.ts'
import { type ParsedXCookies, parseXCookies } from '../platforms/x/cookies.ts'

/** What the social-accounts function seals (docs/api.md, "credentials format"). */
export type StoredCredentials = (
  | { v: 1; platform: 'twitter'; connection?: undefined; cookies: unknown[]; chatPasscode: string | null }
  | { v: 1; platform: 'instagram'; connection?: undefined; password: string; totpSecret: string | null }
  /** An official X account: its developer app's keys and OAuth tokens, no browser sign-in. */
  | XOfficialCredentials
) & { proxy?: ProxyLogin | null }

/** The account proxy's login (social_accounts.proxy_url keeps only its host and port). */
export interface ProxyLogin {
  username: string
  password: string
}

/** What the runner seals after a session: the browser's cookies, reused on the next run. */
export interface SavedSession {
  v: 1
  cookies: SessionCookie[]
  savedAt: string
  /** What a full sign-in last saw of the session: who was signed in, and when (sessions/restore.ts). */
  seen?: SeenSignedIn
}

export class CredentialsError extends Error {
  override name = 'CredentialsError'
}

export interface AccountSecrets {
  credentials: StoredCredentials
  saved: SavedSession | null
}

export async function loadSecrets(
  db: Queryable,
  accountId: string,
  keyring: Keyring,
): Promise<AccountSecrets> {
  const { rows } = await db.query<{
    ciphertext: string
    session_ciphertext: string | null
    legacy_username: string | null
    legacy_password: string | null
  }>(
    `select c.ciphertext, c.session_ciphertext, l.username as legacy_username, l.password as legacy_password
       from public.social_account_credentials c
       left join internal.legacy_proxy_credentials l on l.account_id = c.account_id
      where c.account_id = $1`,
    [accountId],
  )
  const row = rows[0]
  if (!row) throw new CredentialsError('No sign-in details are stored for this account.')
  let credentials = parseCredentials(decryptSecret(row.ciphertext, keyring))
  if (row.legacy_username !== null) {
    // A proxy login stored in plain text before it was sealed (20261125300000_proxy_safety.sql):
    // seal it into the credentials now and drop the plain copy.
    credentials = {
      ...credentials,
      proxy: credentials.proxy ?? { username: row.legacy_username, password: row.legacy_password ?? '' },
    }
    await db.query('select internal.seal_legacy_proxy_login($1, $2, $3)', [
      accountId,
      encryptSecret(JSON.stringify(credentials), keyring),
      keyring.currentKeyId,
    ])
  }
  let saved: SavedSession | null = null
  if (row.session_ciphertext) {
    try {
      saved = parseSaved(decryptSecret(row.session_ciphertext, keyring))
    } catch {
      saved = null // a session that cannot be read is simply not reused
    }
  }
  return { credentials, saved }
}

function parseCredentials(plaintext: string): StoredCredentials {
  let value: unknown
  try {
    value = JSON.parse(plaintext)
  } catch {
    throw new CredentialsError('The stored sign-in details are not readable.')
  }
  const c = value as Record<string, unknown>
  if (c?.v !== 1) throw new CredentialsError('The stored sign-in details have an unknown format.')
  const login = c.proxy as Partial<ProxyLogin> | null | undefined
  const proxy =
    login && typeof login.username === 'string'
      ? { username: login.username, password: typeof login.password === 'string' ? login.password : '' }
      : null
  if (c.platform === 'twitter' && c.connection === 'official') return officialCredentials(c)
  if (c.platform === 'twitter' && Array.isArray(c.cookies))
    return {
      v: 1,
      platform: 'twitter',
      cookies: c.cookies,
      chatPasscode: typeof c.chatPasscode === 'string' ? c.chatPasscode : null,
      proxy,
    }
  if (c.platform === 'instagram' && typeof c.password === 'string')
    return {
      v: 1,
      platform: 'instagram',
      password: c.password,
      totpSecret: typeof c.totpSecret === 'string' && c.totpSecret ? c.totpSecret : null,
      proxy,
    }
  throw new CredentialsError('The stored sign-in details have an unknown format.')
}

function officialCredentials(c: Record<string, unknown>): XOfficialCredentials {
  const text = (name: string) => {
    const value = c[name]
    if (typeof value !== 'string' || !value)
      throw new CredentialsError('The stored X API access is incomplete.')
    return value
  }
  return {
    v: 1,
    platform: 'twitter',
    connection: 'official',
    clientId: text('clientId'),
    clientSecret: text('clientSecret'),
    accessToken: text('accessToken'),
    refreshToken: text('refreshToken'),
    expiresAt: typeof c.expiresAt === 'number' ? c.expiresAt : 0,
    scopes: Array.isArray(c.scopes) ? c.scopes.map(String) : [],
  }
}

function parseSaved(plaintext: string): SavedSession | null {
  const value = JSON.parse(plaintext) as Partial<SavedSession>
  if (value?.v !== 1 || !Array.isArray(value.cookies)) return null
  const saved: SavedSession = { v: 1, cookies: value.cookies, savedAt: String(value.savedAt ?? '') }
  const seen = parseSeen(value.seen)
  return seen ? { ...saved, seen } : saved
}

/** A saved session's last full sign-in, when it is whole (an older save has none: no restore). */
function parseSeen(value: unknown): SeenSignedIn | null {
  const seen = value as Partial<SeenSignedIn> | undefined
  const identity = seen?.identity as Partial<SeenSignedIn['identity']> | undefined
  if (
    typeof seen?.checkedAt !== 'number' ||
    typeof identity?.id !== 'string' ||
    !identity.id ||
    typeof identity.username !== 'string' ||
    typeof identity.name !== 'string'
  )
    return null
  return {
    identity: { id: identity.id, username: identity.username, name: identity.name },
    checkedAt: seen.checkedAt,
  }
}

/** The X cookies to sign in with: the pasted ones, checked as when they were connected. */
export function xCookiesFromCredentials(credentials: StoredCredentials): ParsedXCookies {
  if (credentials.platform !== 'twitter' || credentials.connection === 'official')
    throw new CredentialsError('Not an X account signed in with cookies.')
  const parsed = parseXCookies(credentials.cookies)
  if (!parsed.ok) throw new CredentialsError(parsed.error)
  return parsed.value
}

/** A saved browser session as X cookies, when it still holds a session (auth_token and ct0). */
export function xCookiesFromSaved(saved: SavedSession | null): ParsedXCookies | null {
  if (!saved) return null
  const auth = saved.cookies.find((c) => c.name === 'auth_token')
  const ct0 = saved.cookies.find((c) => c.name === 'ct0')
  if (!auth || !ct0) return null
  const twid = saved.cookies.find((c) => c.name === 'twid')
  const userId = twid ? (/u(?:=|%3D)(\d+)/i.exec(twid.value)?.[1] ?? null) : null
  return { cookies: saved.cookies, authToken: auth.value, csrfToken: ct0.value, userId }
}

/**
 * Seals and stores the browser's cookies for the next session of the account, with what its last
 * full sign-in saw (so the next session may be restored without one).
 */
export async function saveSession(
  db: Queryable,
  accountId: string,
  cookies: SessionCookie[],
  keyring: Keyring,
  seen: SeenSignedIn | null = null,
): Promise<void> {
  if (cookies.length === 0) return
  const saved: SavedSession = { v: 1, cookies, savedAt: new Date().toISOString() }
  const sealed = encryptSecret(JSON.stringify(seen ? { ...saved, seen } : saved), keyring)
  await db.query(
    'update public.social_account_credentials set session_ciphertext = $2 where account_id = $1',
    [accountId, sealed],
  )
}
