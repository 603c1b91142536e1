// Loading an account and signing it in with the adapters: X from the saved session (falling back
// to the pasted cookies when the saved one expired), Instagram from saved cookies or a login with
// the password and TOTP. Outcomes are plain values the handlers turn into statuses.

import { DEFAULT_X_API_BASE_URL } from '@reachflow/domain'
import type { BrowserPool } from '../browser/pool.ts'
import { parseProxyUrl } from '../browser/proxy.ts'
import { checkProxy } from '../browser/proxy-check.ts'
import { accountProxy } from '../browser/proxy-guard.ts'
import type { TypingOptions } from '../browser/typing.ts'
import type { Keyring } from '../crypto.ts'
import type { Queryable } from '../db.ts'
import type { TableRow } from '../db-rows.ts'
import type { PackInUse } from '../packs/registry.ts'
import type { InstagramFacts } from '../platforms/instagram/facts.ts'
import { openInstagramSession } from '../platforms/instagram/session.ts'
import type { AccountPlatform } from '../platforms/names.ts'
import type { PlatformSession, SeenSignedIn, StopSignal } from '../platforms/types.ts'
import type { XFacts } from '../platforms/x/facts.ts'
import { openXSession, type XSessionOptions } from '../platforms/x/session.ts'
import { XApiSession } from '../platforms/x-api/session.ts'
import { type AccountSecrets, xCookiesFromCredentials, xCookiesFromSaved } from './credentials.ts'

export type AccountRow = TableRow<
  'social_accounts',
  | 'id'
  | 'user_id'
  | 'username'
  | 'status'
  | 'proxy_url'
  | 'timezone'
  | 'trust_score'
  | 'paused_until'
  | 'flag_reason'
  | 'platform_user_id'
  | 'daily_message_limit'
  | 'warmup_phase'
  | 'last_synced_at'
  | 'connection',
  { platform: AccountPlatform; paused_until: Date | null; last_synced_at: Date | null }
>

export async function loadAccount(db: Queryable, accountId: string): Promise<AccountRow | undefined> {
  const { rows } = await db.query<AccountRow>(
    `select a.id, a.user_id, a.username, p.name as platform, a.status, a.proxy_url, a.timezone,
            a.trust_score::float8 as trust_score, a.paused_until, a.flag_reason, a.platform_user_id,
            a.daily_message_limit, a.warmup_phase, a.last_synced_at, a.connection
       from public.social_accounts a join public.platforms p on p.id = a.platform_id
      where a.id = $1`,
    [accountId],
  )
  return rows[0]
}

export interface OpenOptions {
  pool: BrowserPool
  xBaseUrl: string
  /** X API v2 for official X accounts (https://api.x.com when absent). */
  xApiBaseUrl?: string
  /** Where an official account's rotated tokens are saved, and the keyring that seals them. */
  official?: { db: Queryable; keyring: Keyring }
  instagramBaseUrl: string
  typing: TypingOptions
  /** The runner's notion of now (ms), which follows the test clock; TOTP codes use it. */
  now: () => number
  /** Overrides of the adapters' page, operation and confirmation limits. */
  timeouts?: { navigationMs?: number; operationMs?: number; confirmMs?: number }
  /** host:port proxies a test may run on loopback (RUNNER_ALLOW_PROXY_HOSTS); empty in production. */
  allowProxyHosts?: readonly string[]
  /** The platform facts the session opens with (the adapters take them as their `facts` option). */
  pack?: PackInUse
  /** Restore the saved X session from what its last full sign-in saw (restorableSession), no home page. */
  restore?: SeenSignedIn | null
}

export type FailedOpen = {
  status: 'failed'
  reason:
    | 'expired'
    | 'locked'
    | 'challenge'
    | 'bad_credentials'
    | 'two_factor'
    | 'rate_limited'
    | 'proxy'
    | 'error'
    /** The pages did not load in time and the site said nothing about the account: try later. */
    | 'slow'
  message: string
  signal?: StopSignal
}

export type OpenOutcome =
  | {
      status: 'ok'
      session: PlatformSession
      /** The saved session was reused (nothing new to save yet). */
      reusedSession: boolean
      /** Restored without a full sign-in (restore.ts): its first page is the check. */
      restored?: boolean
    }
  | FailedOpen

export async function openAccountSession(
  account: AccountRow,
  secrets: AccountSecrets,
  options: OpenOptions,
): Promise<OpenOutcome> {
  // an official account works through the platform's API: no browser, no sign-in, no proxy
  if (secrets.credentials.connection === 'official')
    return openOfficialX(account, secrets.credentials, options)
  // The proxy is checked (and a name resolved and pinned) before the browser may use it.
  const proxy = await accountProxy(
    account.proxy_url,
    secrets.credentials.proxy,
    options.allowProxyHosts ?? [],
  )
  if ('problem' in proxy) return { status: 'failed', reason: 'proxy', message: proxy.problem }
  if (proxy.url) {
    // reachable, accepts the login, reaches the platform: or a failure that names the proxy
    const target = account.platform === 'twitter' ? options.xBaseUrl : options.instagramBaseUrl
    const problem = await checkProxy(parseProxyUrl(proxy.url), target)
    if (problem) return { status: 'failed', reason: 'proxy', message: problem }
  }
  const withProxy = { ...account, proxy_url: proxy.url }
  return account.platform === 'twitter'
    ? openX(withProxy, secrets, options)
    : openInstagram(withProxy, secrets, options)
}

/**
 * The pack's facts as the adapter's `facts` option (none: the adapter's own facts file). The cast is
 * safe because the registry only hands out packs with the code default's shape (packIssues), and
 * the code default is the adapter's facts file itself.
 */
function packFacts<F>(pack: PackInUse | undefined, platform: AccountPlatform): { facts?: F } {
  if (!pack) return {}
  if (pack.platform !== platform) throw new Error(`A ${pack.platform} pack cannot open a ${platform} session`)
  return { facts: pack.facts as unknown as F }
}

async function openX(
  account: AccountRow,
  secrets: AccountSecrets,
  options: OpenOptions,
): Promise<OpenOutcome> {
  if (secrets.credentials.platform !== 'twitter' || secrets.credentials.connection === 'official')
    return { status: 'failed', reason: 'error', message: 'The stored sign-in details are not X cookies.' }
  const pasted = xCookiesFromCredentials(secrets.credentials)
  const saved = xCookiesFromSaved(secrets.saved)
  if (saved && options.restore) {
    const result = await openXSession(saved, {
      ...xSessionOptions(account, secrets, options),
      restore: options.restore,
    })
    if (result.status === 'ok')
      return { status: 'ok', session: result.session, reusedSession: true, restored: true }
    // a context that would not take the cookies: the full sign-in below says what is wrong
  }
  const attempts =
    saved && saved.authToken === pasted.authToken ? [saved] : saved ? [saved, pasted] : [pasted]
  let last: FailedOpen = { status: 'failed', reason: 'error', message: 'X did not open a session.' }
  for (const [index, cookies] of attempts.entries()) {
    const result = await openXSession(cookies, xSessionOptions(account, secrets, options))
    if (result.status === 'ok') {
      const { session } = result
      if (session.user.id) session.seen = { identity: { ...session.user }, checkedAt: options.now() }
      return { status: 'ok', session, reusedSession: cookies === saved && index === 0 }
    }
    last =
      result.status === 'error' || result.status === 'slow'
        ? { status: 'failed', reason: result.status, message: result.message }
        : {
            status: 'failed',
            reason: result.status,
            message: result.signal.message,
            signal: result.signal,
          }
    // only an expired saved session is worth retrying with the pasted cookies
    if (result.status !== 'expired') break
  }
  return last
}

function xSessionOptions(
  account: AccountRow,
  secrets: AccountSecrets,
  options: OpenOptions,
): XSessionOptions {
  return {
    pool: options.pool,
    baseUrl: options.xBaseUrl,
    proxy: account.proxy_url,
    passcode:
      secrets.credentials.platform === 'twitter' && 'chatPasscode' in secrets.credentials
        ? secrets.credentials.chatPasscode
        : null,
    typing: options.typing,
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    ...packFacts<XFacts>(options.pack, 'twitter'),
  }
}

function openOfficialX(
  account: AccountRow,
  credentials: Extract<AccountSecrets['credentials'], { connection: 'official' }>,
  options: OpenOptions,
): OpenOutcome {
  if (!options.official || !account.platform_user_id)
    return { status: 'failed', reason: 'error', message: 'The official X account cannot be opened here.' }
  const session = new XApiSession({
    account: { id: account.id, username: account.username, platformUserId: account.platform_user_id },
    credentials,
    client: {
      apiBaseUrl: options.xApiBaseUrl ?? DEFAULT_X_API_BASE_URL,
      fetch: (input, init) => fetch(input, init),
    },
    db: options.official.db,
    keyring: options.official.keyring,
    now: options.now,
  })
  return { status: 'ok', session, reusedSession: false }
}

async function openInstagram(
  account: AccountRow,
  secrets: AccountSecrets,
  options: OpenOptions,
): Promise<OpenOutcome> {
  if (secrets.credentials.platform !== 'instagram')
    return { status: 'failed', reason: 'error', message: 'The stored sign-in details are not for Instagram.' }
  const result = await openInstagramSession(
    {
      username: account.username,
      password: secrets.credentials.password,
      totpSecret: secrets.credentials.totpSecret,
      cookies: secrets.saved?.cookies ?? null,
    },
    {
      pool: options.pool,
      baseUrl: options.instagramBaseUrl,
      proxy: account.proxy_url,
      typing: options.typing,
      now: options.now,
      ...(options.timeouts ? { timeouts: options.timeouts } : {}),
      ...packFacts<InstagramFacts>(options.pack, 'instagram'),
    },
  )
  switch (result.status) {
    case 'ok':
      return { status: 'ok', session: result.session, reusedSession: result.reused }
    case 'bad_credentials':
      return { status: 'failed', reason: 'bad_credentials', message: result.message }
    case 'two_factor_failed':
    case 'two_factor_required':
      return { status: 'failed', reason: 'two_factor', message: result.message }
    case 'challenge':
      return { status: 'failed', reason: 'challenge', message: result.signal.message, signal: result.signal }
    case 'rate_limited':
      return {
        status: 'failed',
        reason: 'rate_limited',
        message: result.signal.message,
        signal: result.signal,
      }
    case 'slow':
      return { status: 'failed', reason: 'slow', message: result.message }
    default:
      return { status: 'failed', reason: 'error', message: result.message }
  }
}

/** The cookies of an open session, to save for the next run. */
export async function exportSessionCookies(session: PlatformSession) {
  const withExport = session as PlatformSession & { exportCookies?: () => Promise<unknown[]> }
  return (await withExport.exportCookies?.()) ?? []
}
