// A social account as the dashboard shows it (product.md §3 "Social account" and its list view), built
// from the row, its platform and today's usage. Secrets never appear: credentials live in another
// table, and the proxy's user:password is cut down to host:port.
import type { AccountView, PlatformView } from '@reachflow/domain'
import type { RpcResult, Tables } from '../_shared/database.ts'

export type PlatformRow = PlatformView

export const ACCOUNT_COLUMNS = `id, user_id, username, status, daily_message_limit, warmup_phase, trust_score,
  requests_pending, last_login_at, last_synced_at, last_tested_at, proxy_url, flag_reason, paused_until,
  has_chat_passcode, timezone, created_at, updated_at, connection, platform:platforms(id, name, display_name, is_active, coming_soon)`

export type AccountRow = Pick<
  Tables<'social_accounts'>,
  | 'id'
  | 'user_id'
  | 'username'
  | 'status'
  | 'daily_message_limit'
  | 'warmup_phase'
  | 'trust_score'
  | 'requests_pending'
  | 'last_login_at'
  | 'last_synced_at'
  | 'last_tested_at'
  | 'proxy_url'
  | 'flag_reason'
  | 'paused_until'
  | 'has_chat_passcode'
  | 'timezone'
  | 'created_at'
  | 'updated_at'
  | 'connection'
> & { platform: PlatformRow | null }

/** One row of the account_daily_usage() RPC. */
export type AccountUsage = RpcResult<'account_daily_usage'>[number]

/** `user:pass@host:port` or `http://host:port` → `host:port`. */
export function proxyHost(proxyUrl: string | null): string | null {
  if (!proxyUrl) return null
  const withoutScheme = proxyUrl.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
  return withoutScheme.slice(withoutScheme.lastIndexOf('@') + 1)
}

export function accountView(row: AccountRow, usage: AccountUsage | undefined): AccountView {
  // Today's allowance as the runner applies it (internal.account_daily_cap); without usage (an
  // account created a moment ago) its own limit.
  const accountCap = usage?.account_cap ?? row.daily_message_limit
  const remaining = usage?.remaining_today ?? accountCap
  return {
    id: row.id,
    user_id: row.user_id,
    username: row.username,
    platform_id: row.platform?.id ?? null,
    platform_name: row.platform?.name ?? null,
    platform_display_name: row.platform?.display_name ?? null,
    platform: row.platform,
    status: row.status,
    /** browser: the runner signs in to the site; official: the platform's API (OAuth). */
    connection: row.connection,
    daily_message_limit: row.daily_message_limit,
    has_chat_passcode: row.has_chat_passcode,
    proxy: proxyHost(row.proxy_url),
    timezone: row.timezone,
    flag_reason: row.flag_reason,
    paused_until: row.paused_until,
    last_tested_at: row.last_tested_at,
    last_login_at: row.last_login_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
    warmup: {
      phase: row.warmup_phase,
      trustScore: Number(row.trust_score),
      dailyLimits: { messages: accountCap },
      remainingLimits: { messages: remaining, canSendMore: remaining > 0 && row.status === 'active' },
      sentToday: usage?.sent_today ?? 0,
    },
    // The dashboard list view (product.md §3).
    messagesPerDay: accountCap,
    connectionRequests: row.requests_pending,
    connected: row.status === 'active',
    lastSync: row.last_synced_at,
  } satisfies AccountView
}
