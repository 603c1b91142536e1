// The inbox read a campaign tick does in the session it already holds, instead of a separate
// inbox.sync job opening the account again: the same rows and last_synced_at as the sync writes
// (read-replies.ts), so the scheduler (internal.inbox_syncs_due) queues no sync for the account
// while ticks keep reading it. It is a side task of the tick: whatever goes wrong in it is logged
// and the tick sends on. Only a stop signal about the account itself (locked, signed out,
// suspended) goes up, because the sends would meet the same wall and the account must stop.

import { type RepliesRead, readNewReplies, repliesStale } from '../inbox/read-replies.ts'
import { serviceOf } from '../log.ts'
import { accountPlatformOf } from '../platforms/names.ts'
import type { PlatformSession } from '../platforms/types.ts'
import { StopSignalError } from '../platforms/types.ts'
import type { AccountRow } from '../sessions/open.ts'
import { actionState, isSiteChange, recordSiteChange } from '../site-change/record.ts'
import type { JobContext } from './context.ts'

export type FoldedRead =
  | { status: 'read'; read: RepliesRead }
  /** Read recently by other work, or inbox reading is paused on the platform or held for the account. */
  | { status: 'not_due' }
  | { status: 'failed'; error: string }

function stopsTheAccount(error: unknown): boolean {
  return (
    error instanceof StopSignalError && error.signal.scope === 'account' && error.signal.kind !== 'page_error'
  )
}

/** Reads the account's new replies when its last read is stale; never throws but for an account stop. */
export async function readInboxInHeldSession(
  ctx: JobContext,
  session: PlatformSession,
  account: AccountRow,
): Promise<FoldedRead> {
  try {
    if ((await actionState(ctx.db, account.platform, 'inbox', account.id)) !== 'running')
      return { status: 'not_due' }
    if (!(await repliesStale(ctx.db, account.id))) return { status: 'not_due' }
    return { status: 'read', read: await readNewReplies(ctx.db, session, account, ctx.signal) }
  } catch (error) {
    if (stopsTheAccount(error)) throw error
    // a changed inbox page is a site-change sighting (as the sync's guard would record it); sending goes on
    if (isSiteChange(error))
      await recordSiteChange(ctx.db, ctx.log, error, {
        source: 'job',
        packVersion: ctx.packs.current(accountPlatformOf(error.platform)).version,
        accountId: account.id,
      }).catch(() => undefined)
    const message = (error as Error).message
    await ctx.log.warn(
      serviceOf(account.platform),
      `@${account.username}: reading the inbox during a campaign tick failed; the tick sends on and the scheduled sync reads it: ${message}`,
      { accountId: account.id },
    )
    return { status: 'failed', error: message }
  }
}
