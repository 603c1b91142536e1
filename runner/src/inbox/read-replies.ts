// Reading an account's inbox in a session that is already signed in: the conversations (and, on a
// slower cadence, the message requests), the whole thread of everyone whose row shows they may
// have written since the last read (read-plan.ts: the list decides, most threads stay closed),
// their replies recorded (lead replied, follow-ups stopped, customer told, opt-outs to
// do-not-contact), the platform's read markers, and when this read began. X dates messages only by
// labels, read on the runner's clock (clock.ts): a message with no date is new only if its id was
// not stored before. The inbox sync does it on its schedule; a campaign tick that holds the session
// does it too when the last read is older than READ_REPLIES_AFTER_MS, so a busy account's replies
// arrive without a session of their own.
// Throws StopSignalError like the adapters' reads: the caller pauses or flags the account.
import type { Db, Queryable } from '../db.ts'
import type { PlatformSession } from '../platforms/types.ts'
import type { AccountRow } from '../sessions/open.ts'
import { alignSessionClock } from './clock.ts'
import {
  campaignDmsSince,
  conversationsToOpen,
  requestsDue,
  requestsRead,
  storedPreviews,
} from './read-plan.ts'
import { recordReply } from './replies.ts'
import { applyPlatformReadMarkers, readingMarksRead, storeThread } from './threads.ts'

/** Looks back this far before the last read, so a reply that arrived during it is not missed. */
const OVERLAP_MS = 10 * 60_000
/** How far back the first read of an account looks. */
const FIRST_READ_MS = 7 * 24 * 3_600_000
/**
 * A tick reads replies when the last read began longer ago than this: in a session it already
 * holds a read costs no sign-in, so a tick reads whenever the scheduler's fastest pace would
 * (internal.inbox_syncs_due: a conversation going on, 3.5 minutes). An account that is only
 * sending is due a scheduled sync 14.5 minutes after its last read, so at 100 DMs a day (a tick
 * every 14.4 minutes) its ticks do every read and the scheduler queues no sync for it.
 */
export const READ_REPLIES_AFTER_MS = 210_000

export interface RepliesRead {
  /** Conversations in the inbox list. */
  conversations: number
  /** Message requests; null when this read left the requests page for a later one. */
  requests: number | null
  /** Threads opened: the rows that may hold a new message from the other side. */
  opened: number
  replies: number
  optOuts: number
}

/** Whether the account's last inbox read began more than READ_REPLIES_AFTER_MS ago (or never). */
export async function repliesStale(db: Db, accountId: string): Promise<boolean> {
  const { rows } = await db.query<{ stale: boolean }>(
    `select coalesce(last_synced_at, '-infinity') <= internal.now() - make_interval(secs => $2::float8 / 1000) as stale
       from public.social_accounts where id = $1`,
    [accountId, READ_REPLIES_AFTER_MS],
  )
  return rows[0]?.stale ?? false
}

/** How many rows of the inbox list a read keeps the order of (the top ones: where new activity goes). */
const ORDER_KEPT = 200

/**
 * Now (database time), the moment after which a read counts a message as new, whether the
 * account's inbox was ever read before, and the inbox list's order at the last read.
 */
export async function readWindow(
  db: Queryable,
  accountId: string,
): Promise<{ now: Date; since: Date; readBefore: boolean; order: string[] }> {
  const { rows } = await db.query<{ now: Date; since: Date; readBefore: boolean; order: string[] }>(
    `select internal.now() as now,
            coalesce(last_synced_at, internal.now() - make_interval(secs => $2::float8 / 1000))
              - make_interval(secs => $3::float8 / 1000) as since,
            last_synced_at is not null as "readBefore",
            coalesce(inbox_order, '{}') as order
       from public.social_accounts where id = $1`,
    [accountId, FIRST_READ_MS, OVERLAP_MS],
  )
  return (
    rows[0] ?? { now: new Date(), since: new Date(Date.now() - FIRST_READ_MS), readBefore: false, order: [] }
  )
}

export async function readNewReplies(
  db: Db,
  session: PlatformSession,
  account: Pick<AccountRow, 'id' | 'user_id' | 'platform'>,
  signal: AbortSignal,
): Promise<RepliesRead> {
  const { now: startedAt, since, readBefore, order } = await readWindow(db, account.id)
  await alignSessionClock(db, session, startedAt)
  const result: RepliesRead = { conversations: 0, requests: 0, opened: 0, replies: 0, optOuts: 0 }
  const includeRequests = requestsDue(account.id, startedAt, readBefore)
  const conversations = await session.readInbox({ includeRequests })
  result.conversations = conversations.filter((c) => !c.request).length
  result.requests = includeRequests ? conversations.filter((c) => c.request).length : null
  // a browserless (API) session reads a thread with one cheap call and its sends see no thread
  const campaignDms = session.browserless ? new Map() : await campaignDmsSince(db, account.id, since)
  const undated = conversations.some(
    (c) => c.lastMessage.at === null && c.lastMessage.direction === 'incoming',
  )
  const previews = undated ? await storedPreviews(db, account.id) : new Map<string, string>()
  const toOpen = conversationsToOpen(conversations, since, campaignDms, previews, order)
  for (const conversation of toOpen) {
    if (signal.aborted) return result
    const thread = await session.readThread(conversation.threadId)
    result.opened += 1
    // a message the page gives no time for is new only if not stored before (by its id)
    const known = thread.some((m) => m.direction === 'incoming' && m.at === null)
      ? await storedMessageIds(db, account.id, conversation.peer.username)
      : new Set<string>()
    const stored = await storeThread(db, {
      accountId: account.id,
      peerUsername: conversation.peer.username,
      peerId: conversation.peer.id,
      threadId: conversation.threadId,
      platformUnread: conversation.unread,
      opened: readingMarksRead(session.platform),
      messages: thread,
    })
    const incoming = thread.filter(
      (m) =>
        m.direction === 'incoming' && (m.at === null ? !known.has(m.id) : Date.parse(m.at) > since.getTime()),
    )
    if (incoming.length === 0) continue
    const outcome = await recordReply(db, {
      accountId: account.id,
      userId: account.user_id,
      platform: account.platform,
      peerUsername: conversation.peer.username,
      messages: incoming,
      ...(stored ? { inboxThreadId: stored.threadId } : {}),
    })
    result.replies += outcome.leadsReplied
    if (outcome.optedOut) result.optOuts += 1
  }
  // read on the platform itself since: not unread in Reachflow too
  await applyPlatformReadMarkers(
    db,
    account.id,
    conversations.filter((c) => !c.unread).map((c) => c.threadId),
  )
  // when this read began: a reply that came in while it ran is looked for again next time
  // and the list's order now, which the next read compares its rows with
  const listed = conversations.filter((c) => !c.request).map((c) => c.threadId)
  await db.query(
    `update public.social_accounts set last_synced_at = $2, requests_pending = coalesce($3, requests_pending),
            inbox_order = $4 where id = $1`,
    [account.id, startedAt, result.requests, listed.slice(0, ORDER_KEPT)],
  )
  if (includeRequests) requestsRead(account.id, startedAt)
  return result
}

/** The platform ids of the messages already stored from the conversation with this person. */
async function storedMessageIds(
  db: Queryable,
  accountId: string,
  peerUsername: string,
): Promise<Set<string>> {
  const { rows } = await db.query<{ id: string }>(
    `select m.platform_message_id as id
       from public.inbox_messages m join public.inbox_threads t on t.id = m.thread_id
      where t.account_id = $1 and lower(t.peer_username) = lower(ltrim($2, '@'))
        and m.platform_message_id is not null`,
    [accountId, peerUsername],
  )
  return new Set(rows.map((r) => r.id))
}
