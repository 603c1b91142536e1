import { fixFor } from '@/lib/accounts/account-check'
import type { SocialAccount } from './api/get-accounts'

/** product.md §3: an account is usable when active; anything else shows Inactive, except error. */
export function accountBadgeStatus(status: string): string {
  if (status === 'active') return 'active'
  if (status === 'error' || status === 'flagged') return 'error'
  return 'inactive'
}

/** Why an account is not usable, in words (the badge alone says only Inactive). */
export function accountNote(account: SocialAccount): string | null {
  switch (account.status) {
    case 'testing':
      return 'Being tested: this can take a few minutes.'
    case 'paused':
      return account.paused_until
        ? `Paused for safety until ${new Date(account.paused_until).toLocaleString()}.`
        : 'Paused for safety.'
    case 'flagged':
      return account.flag_reason
        ? `Flagged: ${account.flag_reason} ${fixFor(account.flag_reason, account.platform?.name ?? '')}`
        : 'Flagged by the platform.'
    case 'error':
      // an official account's reason already says the one fix: connecting it again on the platform
      if (account.connection === 'official')
        return (
          account.flag_reason ??
          'The platform no longer accepts Reachflow’s access. Connect the account again.'
        )
      // The real cause the runner recorded, and the fix inside Reachflow.
      return account.flag_reason
        ? `${account.flag_reason} ${fixFor(account.flag_reason, account.platform?.name ?? '')}`
        : 'Sign-in failed. Update the account in Edit account, then test again.'
    default:
      return null
  }
}

export const isConnected = (account: Pick<SocialAccount, 'status'>) => account.status === 'active'

/** How long after a passing test the first inbox sync (queued by that test) may still be on its way. */
const FIRST_SYNC_GRACE_MS = 15 * 60_000

/**
 * The card's Last Sync: when the inbox was last read; right after a connect, before the first
 * read (the passing test queued it), that it is on its way rather than "Never".
 */
export function lastSyncLabel(
  account: Pick<SocialAccount, 'status' | 'last_synced_at' | 'last_tested_at'>,
  relative: (iso: string) => string,
  now: number = Date.now(),
): string {
  if (account.last_synced_at) return relative(account.last_synced_at)
  const tested = account.last_tested_at ? Date.parse(account.last_tested_at) : Number.NaN
  if (account.status === 'active' && now - tested < FIRST_SYNC_GRACE_MS) return 'Syncing…'
  return 'Never'
}
