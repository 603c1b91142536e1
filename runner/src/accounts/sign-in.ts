// Turning a failed sign-in into the account's status: a platform stop (locked, checkpoint, signed
// out, rate limited) goes through stopAccount; wrong details need the customer; pages that did not
// load in time (a starved machine or a slow network, the site said nothing about the account) put
// the job off without touching the account; anything else is trouble worth retrying (the job
// fails and pg-boss tries again later).
import { DecryptionError } from '../crypto.ts'
import type { Queryable } from '../db.ts'
import { DeferredForLoadError, RetryLaterError } from '../jobs/context.ts'
import { platformOf } from '../platforms/names.ts'
import { type PlatformSession, StopSignalError, stopSignal } from '../platforms/types.ts'
import { CredentialsError } from '../sessions/credentials.ts'
import type { AccountHandle } from '../sessions/manager.ts'
import type { AccountRow, FailedOpen } from '../sessions/open.ts'
import { accountNeedsCustomer, stopAccount } from './status.ts'

export async function recordSignInFailure(
  db: Queryable,
  account: AccountRow,
  failure: FailedOpen,
): Promise<string> {
  if (failure.signal) return stopAccount(db, account, failure.signal)
  switch (failure.reason) {
    case 'slow':
      throw new DeferredForLoadError(`Signing in @${account.username} was slow: ${failure.message}`)
    case 'expired':
      return stopAccount(
        db,
        account,
        stopSignal(platformOf(account.platform), 'unauthenticated', '32', failure.message),
      )
    case 'bad_credentials':
    case 'two_factor':
    case 'proxy':
      await accountNeedsCustomer(db, account, failure.message)
      return 'error'
    default:
      throw new RetryLaterError(`Signing in @${account.username} failed: ${failure.message}`)
  }
}

/**
 * The account's session, or why there is none (the status is already recorded). `check` 'full'
 * always signs in in full (the account test): no saved session is restored without the home page.
 */
export async function signIn(
  db: Queryable,
  handle: AccountHandle,
  account: AccountRow,
  check?: 'full',
): Promise<{ session: PlatformSession } | { note: string }> {
  try {
    const opened = await handle.open(account, undefined, check)
    if (opened.status === 'ok') return { session: opened.session }
    return { note: `Sign-in failed: ${await recordSignInFailure(db, account, opened)}` }
  } catch (error) {
    if (!(error instanceof CredentialsError) && !(error instanceof DecryptionError)) throw error
    await accountNeedsCustomer(db, account, error.message)
    return { note: error.message }
  }
}

/**
 * For a StopSignalError thrown while the account works: an account signal pauses or flags it
 * and closes its session (returns the new status); anything else is rethrown.
 */
export async function stopOnSignal(
  db: Queryable,
  handle: AccountHandle,
  account: AccountRow,
  error: unknown,
): Promise<string> {
  if (
    !(error instanceof StopSignalError) ||
    error.signal.scope !== 'account' ||
    error.signal.kind === 'page_error'
  )
    throw error
  const status = await stopAccount(db, account, error.signal)
  await handle.discard()
  return status
}
