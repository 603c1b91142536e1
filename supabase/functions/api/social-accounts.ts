// /social-accounts: list (with platform and today's usage), platforms, create (plan limit, sealed
// credentials and the account.test job in one database transaction), the live cookie check, a
// test of a stored account, and delete (with its waiting jobs).

import type {
  AccountDeleted,
  AccountSaved,
  AccountTested,
  AccountView,
  CookiesChecked,
  ParsedXCookies,
  PlatformView,
} from '@reachflow/domain'
import { isIpLiteral, type ProxyParts, proxyAddress, resolvedProblem } from '@reachflow/domain'
import type { Caller } from '../_shared/auth.ts'
import { type AccountCredentials, sealCredentials, type XCredentials } from '../_shared/credentials.ts'
import { decryptSecret, keyringFromEnv } from '../_shared/crypto.ts'
import { DatabaseError, fromDbError, must } from '../_shared/db-errors.ts'
import { badRequest, conflict, HttpError, jsonResponse, notFound, unprocessable } from '../_shared/errors.ts'
import { unsubscribeOfficialInstagram } from '../_shared/instagram-unsubscribe.ts'
import { fromJson } from '../_shared/json.ts'
import { parseId, parseQuery, readJson, z } from '../_shared/validation.ts'
import { verifyXCookies, type XVerifyResult } from '../_shared/x-verify.ts'
import { readAccountInput, readAccountUpdate, readCookiesInput } from './account-input.ts'
import { ACCOUNT_COLUMNS, type AccountUsage, accountView } from './account-view.ts'
import type { ApiDeps, CallContext } from './deps.ts'
import { revokeOfficialX } from './x-official-tokens.ts'

const NOT_FOUND = 'Account not found'
/**
 * X did not reject the cookies, which is all an HTTP check can know since cookie sessions get 404
 * from verify_credentials: whether they sign in is the runner's test (a browser on /home, then
 * X Chat), and nothing claims success before it passed.
 */
export const COOKIES_NOT_REJECTED_TEST_RUNNING =
  'X did not reject the cookies. Signing in with them and opening X Chat now: the card shows the result in a minute or two.'
const COOKIES_NOT_REJECTED_HELD = (status: string) =>
  `X did not reject the cookies. The sign-in test is queued; the account stays ${status} until Reachflow resumes it.`

export const OFFICIAL_NOT_BROWSER =
  "This account is connected through the platform's official API: it has no browser sign-in to test or edit. To renew its access, connect it again."

/**
 * An official account has an OAuth token in its seal, not a browser sign-in: a browser test would
 * fail it, and merging a password into the seal would lose the token.
 */
function refuseOfficial(connection: string): void {
  if (connection === 'official') throw conflict(OFFICIAL_NOT_BROWSER)
}

/** What create_social_account and update_social_account answer (their jsonb). */
const accountSaved = z.object({ test_job_id: z.string().nullable() })

const ACCOUNT_STATUSES = ['active', 'inactive', 'error', 'testing', 'paused', 'flagged'] as const
const listQuery = z.object({ status: z.enum(ACCOUNT_STATUSES).optional() })

async function usageByAccount(caller: Caller): Promise<Map<string, AccountUsage>> {
  const usage = must(await caller.db.rpc('account_daily_usage'))
  return new Map(usage.map((u) => [u.account_id, u]))
}

async function viewOf(caller: Caller, accountId: string) {
  const found = await caller.db
    .from('social_accounts')
    .select(ACCOUNT_COLUMNS)
    .eq('id', accountId)
    .maybeSingle()
  const row = must(found, NOT_FOUND)
  return accountView(row, (await usageByAccount(caller)).get(accountId))
}

export async function listAccounts(_req: Request, { caller, url }: CallContext): Promise<Response> {
  const { status } = parseQuery(url, listQuery)
  let query = caller.db
    .from('social_accounts')
    .select(ACCOUNT_COLUMNS)
    .order('created_at', { ascending: false })
  if (status) query = query.eq('status', status)
  const rows = must(await query)
  const usage = await usageByAccount(caller)
  return jsonResponse(rows.map((row) => accountView(row, usage.get(row.id))) satisfies AccountView[])
}

export async function listPlatforms(_req: Request, { caller }: CallContext): Promise<Response> {
  const rows = must(
    await caller.db
      .from('platforms')
      .select('id, name, display_name, is_active, coming_soon')
      .order('coming_soon')
      .order('display_name'),
  )
  return jsonResponse(rows satisfies PlatformView[])
}

export async function createAccount(req: Request, { caller, deps, service }: CallContext): Promise<Response> {
  const input = readAccountInput(await readJson(req))
  await checkProxyDns(input.proxy, deps)
  const sealed = await sealCredentials(input.credentials, await keyringFromEnv(deps.env))
  const { data, error } = await service().rpc('create_social_account', {
    p_user_id: caller.id,
    p_platform: input.platform,
    p_username: input.username,
    p_proxy_url: input.proxyUrl,
    p_credentials_key_id: sealed.keyId,
    p_credentials: sealed.ciphertext,
    p_has_chat_passcode: input.credentials.platform === 'twitter' && input.credentials.chatPasscode !== null,
  })
  if (error) throw fromDbError(error)
  const created = fromJson(accountSaved.extend({ id: z.string() }), data, 'create_social_account')
  const view = await viewOf(caller, created.id)
  return jsonResponse({ ...view, testQueued: created.test_job_id !== null } satisfies AccountSaved, 201)
}

/**
 * A proxy given by name must resolve, and only to public addresses: a name pointing at the
 * runner's own network is refused here and, since DNS can change, again by the runner at connect time.
 */
async function checkProxyDns(proxy: ProxyParts | null, deps: ApiDeps): Promise<void> {
  if (!proxy || isIpLiteral(proxy.host)) return
  const problem = resolvedProblem(proxy.host, await deps.resolveHost(proxy.host))
  if (problem) throw badRequest(problem)
}

/** Production's X unless X_BASE_URL says otherwise: a missing secret cannot point at a sandbox. */
export const DEFAULT_X_BASE_URL = 'https://x.com'

export function xBaseUrlOf(env: ApiDeps['env']): string {
  return env('X_BASE_URL')?.trim() || DEFAULT_X_BASE_URL
}

function xBaseUrl(deps: ApiDeps): string {
  return xBaseUrlOf(deps.env)
}

/** The HTTP answer for a failed live check: what X said, in words the customer can act on. */
function verifyFailure(result: Exclude<XVerifyResult, { status: 'not_rejected' }>): HttpError {
  if (result.status === 'unreachable') return new HttpError(502, result.message)
  return unprocessable(result.message, { valid: false, reason: result.status })
}

async function checkCookiesLive(deps: ApiDeps, cookies: ParsedXCookies): Promise<XVerifyResult> {
  return verifyXCookies(cookies, { baseUrl: xBaseUrl(deps), fetch: deps.fetch })
}

export async function validateCookies(req: Request, { deps }: CallContext): Promise<Response> {
  const cookies = readCookiesInput(await readJson(req))
  const result = await checkCookiesLive(deps, cookies)
  if (result.status !== 'not_rejected') throw verifyFailure(result)
  // not "valid": no HTTP call proves a cookie session any more (see COOKIES_NOT_REJECTED_TEST_RUNNING)
  return jsonResponse({ valid: null, rejected: false, message: result.message } satisfies CookiesChecked)
}

/**
 * Tests a stored account. X: the stored cookies are checked over HTTP at once (a sign-out or a lock
 * shows there) and the account is 'testing' until the runner's test; Instagram needs a browser
 * sign-in, so it is queued for the runner. Either way an account.test job is queued so the runner
 * checks the full session (and the X Chat passcode): only it can say the account works.
 */
export async function testAccount(
  _req: Request,
  { caller, deps, service, params }: CallContext,
): Promise<Response> {
  const id = parseId(params.id, NOT_FOUND)
  const found = await caller.db
    .from('social_accounts')
    .select('id, status, connection, platform:platforms(name)')
    .eq('id', id)
    .maybeSingle()
  const account = must(found, NOT_FOUND)
  refuseOfficial(account.connection)
  const db = service()
  const queued = await caller.db.rpc('request_account_test', { p_account_id: id })
  if (queued.error) throw fromDbError(queued.error, NOT_FOUND)

  if (account.platform?.name !== 'twitter') {
    const marked = await db.from('social_accounts').update({ status: 'testing' }).eq('id', id)
    if (marked.error) throw new DatabaseError(marked.error)
    return jsonResponse(
      {
        ...(await viewOf(caller, id)),
        message: 'The account test is queued and may take a few minutes.',
      } satisfies AccountTested,
      202,
    )
  }

  const sealedRow = await db
    .from('social_account_credentials')
    .select('ciphertext')
    .eq('account_id', id)
    .maybeSingle()
  const stored = must(sealedRow, NOT_FOUND)
  const credentials = JSON.parse(
    await decryptSecret(stored.ciphertext, await keyringFromEnv(deps.env)),
  ) as XCredentials
  const auth = credentials.cookies.find((c) => c.name === 'auth_token')?.value ?? ''
  const ct0 = credentials.cookies.find((c) => c.name === 'ct0')?.value ?? ''
  const result = await checkCookiesLive(deps, {
    cookies: credentials.cookies,
    authToken: auth,
    csrfToken: ct0,
    userId: null,
  })
  // X down, slow or rate limiting is not the account's fault: answer, but leave its status alone.
  if (result.status === 'unreachable' || result.status === 'rate_limited') throw verifyFailure(result)
  const testedAt = deps.now().toISOString()
  // A working session does not lift the runner's stop: a paused (circuit breaker) or flagged account
  // stays so until the runner resumes it.
  const held = account.status === 'paused' || account.status === 'flagged'
  // Cookies X did not reject are not yet a working account (the session itself, the proxy, X Chat and
  // its passcode are the runner's test, queued above): the account is 'testing' until it says Active.
  const update =
    result.status === 'not_rejected'
      ? held
        ? { last_tested_at: testedAt }
        : { status: 'testing', flag_reason: null, last_tested_at: testedAt }
      : { status: 'error', flag_reason: result.message, last_tested_at: testedAt }
  const saved = await db.from('social_accounts').update(update).eq('id', id)
  if (saved.error) throw new DatabaseError(saved.error)
  if (result.status !== 'not_rejected') throw verifyFailure(result)
  return jsonResponse({
    ...(await viewOf(caller, id)),
    message: held ? COOKIES_NOT_REJECTED_HELD(account.status) : COOKIES_NOT_REJECTED_TEST_RUNNING,
  } satisfies AccountTested)
}

export async function deleteAccount(
  _req: Request,
  { caller, deps, service, params }: CallContext,
): Promise<Response> {
  const id = parseId(params.id, NOT_FOUND)
  const found = await caller.db
    .from('social_accounts')
    .select('connection, platform:platforms(name)')
    .eq('id', id)
    .maybeSingle()
  const account = must(found, NOT_FOUND)
  // an official account's grant ends at the platform before the account (and its tokens) are gone:
  // X revokes the grant; Meta keeps sending an Instagram account's events until it is unsubscribed
  let revoked: boolean | undefined
  if (account.connection === 'official' && account.platform?.name === 'twitter') {
    const sealedRow = await service()
      .from('social_account_credentials')
      .select('ciphertext')
      .eq('account_id', id)
      .maybeSingle()
    revoked = sealedRow.data ? await revokeOfficialX(deps, sealedRow.data.ciphertext) : false
  }
  if (account.connection === 'official' && account.platform?.name === 'instagram')
    await unsubscribeOfficialInstagram(service(), deps.env, deps.fetch, id)
  const result = await caller.db.rpc('delete_social_account', { p_account_id: id })
  if (result.error) throw fromDbError(result.error, NOT_FOUND)
  if (!result.data) throw notFound(NOT_FOUND)
  return jsonResponse({
    id,
    deleted: true,
    message: 'Account deleted successfully!',
    ...(revoked === undefined ? {} : { revoked }),
  } satisfies AccountDeleted)
}

/**
 * Edit account: PATCH /social-accounts/:id with any of authData (X cookies and
 * passcode; Instagram password and 2FA key), proxyUrl (null removes it) and dailyMessageLimit.
 * Stored credentials are decrypted, merged with what was sent, checked and sealed again; the
 * account is re-tested. Nothing secret is returned.
 */
export async function updateAccount(
  req: Request,
  { caller, deps, service, params }: CallContext,
): Promise<Response> {
  const id = parseId(params.id, NOT_FOUND)
  const found = await caller.db
    .from('social_accounts')
    .select('id, connection, platform:platforms(name)')
    .eq('id', id)
    .maybeSingle()
  const account = must(found, NOT_FOUND)
  const platform = account.platform?.name ?? ''
  const json = await readJson(req)
  if (account.connection === 'official') return updateOfficialAccount(caller, id, json)
  const update = readAccountUpdate(json, platform)
  if (update.proxy) await checkProxyDns(update.proxy, deps)
  const keyring = await keyringFromEnv(deps.env)
  const sealedRow = await service()
    .from('social_account_credentials')
    .select('ciphertext')
    .eq('account_id', id)
    .maybeSingle()
  const stored = must(sealedRow, NOT_FOUND)
  const current = JSON.parse(await decryptSecret(stored.ciphertext, keyring)) as AccountCredentials
  const merged = {
    ...current,
    ...update.credentials,
    ...(update.proxy === undefined
      ? {}
      : {
          proxy: update.proxy?.username
            ? { username: update.proxy.username, password: update.proxy.password ?? '' }
            : null,
        }),
  } as AccountCredentials
  const sealed = await sealCredentials(merged, keyring)
  const { data, error } = await service().rpc('update_social_account', {
    p_user_id: caller.id,
    p_account_id: id,
    p_credentials_key_id: sealed.keyId,
    p_credentials: sealed.ciphertext,
    p_has_chat_passcode: merged.platform === 'twitter' ? merged.chatPasscode !== null : null,
    p_set_proxy: update.proxy !== undefined,
    p_proxy_url: update.proxy ? proxyAddress(update.proxy) : null,
    p_daily_message_limit: update.dailyMessageLimit,
  })
  if (error) throw fromDbError(error, NOT_FOUND)
  const updated = fromJson(accountSaved, data, 'update_social_account')
  return jsonResponse({
    ...(await viewOf(caller, id)),
    testQueued: updated.test_job_id !== null,
  } satisfies AccountSaved)
}

/** An official account: only its daily limit can change (its sign-in is the platform's OAuth). */
async function updateOfficialAccount(caller: Caller, id: string, json: unknown): Promise<Response> {
  const body = (json ?? {}) as Record<string, unknown>
  if (body.authData !== undefined || body.proxyUrl !== undefined) throw conflict(OFFICIAL_NOT_BROWSER)
  const update = readAccountUpdate({ dailyMessageLimit: body.dailyMessageLimit }, 'twitter')
  if (update.dailyMessageLimit !== null) {
    const saved = await caller.db
      .from('social_accounts')
      .update({ daily_message_limit: update.dailyMessageLimit })
      .eq('id', id)
    if (saved.error) throw fromDbError(saved.error, NOT_FOUND)
  }
  return jsonResponse({ ...(await viewOf(caller, id)), testQueued: false } satisfies AccountSaved)
}
