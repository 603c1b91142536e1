// account.test {accountId}: signs the account in from scratch (X: cookies, then X Chat and its
// passcode; Instagram: saved session or password + TOTP), and records the result: active with
// last login, the platform's user id and a better trust score, or why not. A paused account stays
// paused (its pause ends on its own); a flagged or failed one that works again is active again.
// The browser session is saved encrypted for the jobs that follow. While the platform's sign-in is
// paused after a site change the test waits (a changed page would say nothing about the account).
import { signIn, stopOnSignal } from '../accounts/sign-in.ts'
import { adjustTrust, stopAccount } from '../accounts/status.ts'
import { serviceOf } from '../log.ts'
import type { XSession } from '../platforms/x/session.ts'
import type { AccountHandle } from '../sessions/manager.ts'
import { type AccountRow, loadAccount } from '../sessions/open.ts'
import { actionPaused, pausedNote } from '../site-change/record.ts'
import { DeferredForLoadError, type JobContext, RetryLaterError } from './context.ts'
import type { JobData } from './queues.ts'

export interface AccountTestResult {
  status: string
  note?: string
}

export async function accountTest(
  ctx: JobContext,
  data: JobData['account.test'],
): Promise<AccountTestResult> {
  const account = await loadAccount(ctx.db, data.accountId)
  if (!account) return { status: 'missing', note: 'The account was deleted.' }
  if (account.status === 'inactive') return { status: 'inactive', note: 'The account is switched off.' }
  if (await actionPaused(ctx.db, account.platform, 'session'))
    return { status: account.status, note: pausedNote(account.platform, 'session') }
  const used = await ctx.sessions.use(account.id, ctx.config.accountWaitMs, (handle) =>
    test(ctx, handle, account).catch((error: unknown) => {
      // the customer waits for this answer: a slow sign-in is a failed test to retry, not put off
      throw error instanceof DeferredForLoadError ? new RetryLaterError(error.message) : error
    }),
  )
  if (used.status === 'busy') throw new RetryLaterError(`The account is busy (${used.where}).`)
  return used.value
}

async function test(ctx: JobContext, handle: AccountHandle, account: AccountRow): Promise<AccountTestResult> {
  // a test proves the sign-in works now, not that an old session still answers
  await handle.discard()
  await ctx.db.query('update public.social_accounts set last_tested_at = internal.now() where id = $1', [
    account.id,
  ])
  const signedIn = await signIn(ctx.db, handle, account, 'full')
  const log = ctx.log.with({ accountId: account.id })
  const service = serviceOf(account.platform)
  if ('note' in signedIn) {
    await log.warn(service, `Account test of @${account.username} failed`, { reason: signedIn.note })
    return { status: (await loadAccount(ctx.db, account.id))?.status ?? 'error', note: signedIn.note }
  }
  const session = signedIn.session
  try {
    if (account.connection === 'official') {
      // an official account has no X Chat passcode: its test is that the API answers its token
      await session.readInbox({ includeRequests: false })
    } else if (session.platform === 'x') {
      const unlock = await (session as XSession).unlockChat()
      if ('signal' in unlock) {
        // a wrong or missing passcode is never retried by itself: the customer must fix it
        const status = await stopAccount(ctx.db, account, unlock.signal)
        await handle.discard()
        await log.warn(
          service,
          `Account test of @${account.username}: X Chat ${unlock.status.replace('_', ' ')}`,
        )
        return { status, note: unlock.signal.message }
      }
    } else {
      await session.readInbox({ includeRequests: false })
    }
  } catch (error) {
    const status = await stopOnSignal(ctx.db, handle, account, error)
    return { status, note: (error as Error).message }
  }
  const { rows } = await ctx.db.query<{ status: string }>(
    `update public.social_accounts
        set status = case when status in ('paused', 'active') then status else 'active' end,
            flag_reason = case when status = 'paused' then flag_reason else null end,
            last_login_at = internal.now(), platform_user_id = coalesce($2, platform_user_id)
      where id = $1
      returning status`,
    [account.id, session.user.id || null],
  )
  await adjustTrust(ctx.db, account.id, 0.05)
  // the first inbox sync now, not in the scheduler's next quarter hour: Last sync is real at once
  await ctx.db.query('select internal.request_inbox_sync($1)', [account.id])
  await log.info(service, `Account test of @${account.username} passed`, { platformUserId: session.user.id })
  return { status: rows[0]?.status ?? 'active' }
}
