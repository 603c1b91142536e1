// What the runner does to an account when the platform pushes back. A stop signal pauses the
// account (rate limits and automation blocks: the scheduler resumes it when paused_until passes)
// or flags it for the customer (locked, checkpoint, signed out, X Chat locked); either way the
// trust score drops, which slows the account's sending after it resumes (see pacing.ts), and the
// customer gets one account_flagged notification. A burst of unconfirmed or failed sends trips
// the same breaker. Times come from internal.now() so the test clock moves them too.
import type { Queryable } from '../db.ts'
import type { AccountPlatform } from '../platforms/names.ts'
import type { StopSignal } from '../platforms/types.ts'
import { X_API_UNAUTHORIZED } from '../platforms/x-api/session.ts'

export interface AccountRef {
  id: string
  user_id: string
  username: string
  platform: AccountPlatform
}

const PLATFORM_NAME = { twitter: 'X', instagram: 'Instagram' } as const

/** How long each kind of signal pauses an account when the platform gives no reset time. */
const PAUSE_MS: Partial<Record<StopSignal['kind'], number>> = {
  rate_limit: 60 * 60_000,
  automation: 24 * 60 * 60_000,
  page_error: 15 * 60_000,
}

/** Signals the customer must act on: the account is flagged (or in error) until it is fixed and tested. */
const NEEDS_CUSTOMER: Partial<Record<StopSignal['kind'], 'flagged' | 'error'>> = {
  locked: 'flagged',
  challenge: 'flagged',
  unauthenticated: 'error',
  chat_locked: 'error',
}

export const BREAKER = { windowMinutes: 15, threshold: 3, pauseMs: 30 * 60_000 } as const

/** Adds delta to the trust score, kept within [0.05, 0.95]. */
export async function adjustTrust(db: Queryable, accountId: string, delta: number): Promise<void> {
  await db.query(
    `update public.social_accounts
        set trust_score = round(least(0.95, greatest(0.05, trust_score + $2))::numeric, 2)
      where id = $1`,
    [accountId, delta],
  )
}

/**
 * The fix, named where the customer makes it: a passcode or signed-out session is fixed
 * in Reachflow's Edit account; a lock or challenge on the platform itself.
 */
function fixOf(account: AccountRef, signal: StopSignal): string {
  if (signal.kind === 'chat_locked' || /passcode/i.test(signal.message))
    return 'Enter your X Chat passcode in Edit account, then test the account again.'
  if (signal.kind === 'unauthenticated' && signal.code === X_API_UNAUTHORIZED)
    return 'Connect it again from “Add account” with your X app to renew its access.'
  if (signal.kind === 'unauthenticated')
    return account.platform === 'twitter'
      ? 'Paste fresh cookies from x.com in Edit account, then test the account again.'
      : 'Check the password in Edit account, then test the account again.'
  return `Fix it on ${PLATFORM_NAME[account.platform]}, then test the account again.`
}

/** Pauses or flags the account for a stop signal; notifies the customer when its status changes. */
export async function stopAccount(db: Queryable, account: AccountRef, signal: StopSignal): Promise<string> {
  const needs = NEEDS_CUSTOMER[signal.kind]
  const reason = `${PLATFORM_NAME[account.platform]} ${signal.kind.replace('_', ' ')} (${signal.code}): ${signal.message}`
  if (needs) {
    await setStatus(db, account, needs, null, reason, {
      title: 'Account needs attention',
      message: `@${account.username} stopped sending: ${signal.message} ${fixOf(account, signal)}`,
      signal,
    })
    return needs
  }
  const resetAt = signal.resetAt ? Date.parse(signal.resetAt) : Number.NaN
  const pauseMs = PAUSE_MS[signal.kind] ?? PAUSE_MS.rate_limit ?? 3_600_000
  await setStatus(
    db,
    account,
    'paused',
    { resetAt: Number.isNaN(resetAt) ? null : resetAt, pauseMs },
    reason,
    {
      title: 'Account paused',
      message: `@${account.username} was paused: ${signal.message} Sending resumes automatically later, at a reduced rate.`,
      signal,
    },
  )
  return 'paused'
}

/**
 * The circuit breaker: several unconfirmed or failed sends in a short time pause the account.
 * Sends that met a site change (their log carries the incident) are the site's doing, not counted.
 */
export async function tripBreakerIfNeeded(db: Queryable, account: AccountRef): Promise<boolean> {
  const { rows } = await db.query<{ bad: number }>(
    `select count(*)::int as bad from public.dm_logs
      where account_id = $1 and status in ('uncertain', 'error') and incident_id is null
        and created_at > now() - make_interval(mins => $2)`,
    [account.id, BREAKER.windowMinutes],
  )
  if ((rows[0]?.bad ?? 0) < BREAKER.threshold) return false
  const reason = `${BREAKER.threshold} or more sends failed or could not be confirmed within ${BREAKER.windowMinutes} minutes`
  await setStatus(db, account, 'paused', { resetAt: null, pauseMs: BREAKER.pauseMs }, reason, {
    title: 'Account paused',
    message: `@${account.username} was paused for ${BREAKER.pauseMs / 60_000} minutes: ${reason}. Sending resumes automatically, at a reduced rate.`,
  })
  return true
}

/** Puts the account in error for a problem only the customer can fix (wrong password, 2FA). */
export async function accountNeedsCustomer(
  db: Queryable,
  account: AccountRef,
  reason: string,
): Promise<void> {
  await setStatus(db, account, 'error', null, reason, {
    title: 'Account needs attention',
    message: `@${account.username} cannot sign in: ${reason} Update it in Edit account, then test the account again.`,
  })
}

async function setStatus(
  db: Queryable,
  account: AccountRef,
  status: 'paused' | 'flagged' | 'error',
  pause: { resetAt: number | null; pauseMs: number } | null,
  reason: string,
  notice: { title: string; message: string; signal?: StopSignal },
): Promise<void> {
  const { rows } = await db.query<{ changed: boolean }>(
    `with before as (select status from public.social_accounts where id = $1)
     update public.social_accounts a
        set status = $2,
            flag_reason = left($3, 500),
            paused_until = case when $2 = 'paused'
              then greatest(internal.now() + make_interval(secs => $4::float8 / 1000),
                            coalesce(to_timestamp($5::float8 / 1000), '-infinity'::timestamptz))
              else null end,
            trust_score = round(greatest(0.05, a.trust_score - 0.25)::numeric, 2)
       from before
      where a.id = $1
     returning before.status is distinct from $2 as changed`,
    [account.id, status, reason, pause?.pauseMs ?? 0, pause?.resetAt ?? null],
  )
  if (!rows[0]?.changed) return
  // in the account's workspace, whichever one its creator is working in now
  await db.query(
    `insert into public.notifications (workspace_id, user_id, type, title, message, metadata)
     select a.workspace_id, $1, 'account_flagged', $2, $3, $4 from public.social_accounts a where a.id = $5`,
    [
      account.user_id,
      notice.title,
      notice.message.slice(0, 2000),
      {
        accountId: account.id,
        status,
        ...(notice.signal ? { kind: notice.signal.kind, code: notice.signal.code } : {}),
      },
      account.id,
    ],
  )
}
