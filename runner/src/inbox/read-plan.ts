// Which conversations an inbox read opens, decided from the inbox list (and, for a row with no date,
// the preview the last read stored). Opening a thread is
// the expensive part of a read (on X a page load and a decryption), and most conversations active
// since the last read are active only because a campaign tick just sent into them. The list shows
// per row an unread marker, the last message's time, its text and whether it is ours (X: the
// "You: " preview; Instagram: is_sent_by_viewer), so a row can hold a new message from the other
// side only when:
// - it is unread, or
// - its last message is newer than the read window and is not ours, or
// - its last message is ours but not a campaign DM recorded in the window: something else (the
//   customer on the platform, an answer from the Conversations inbox) wrote after a message we may
//   not have seen. A campaign DM last is safe to skip: every browser send reads the thread's rows
//   before typing and records what the other side wrote since the last read (seen-replies.ts), and
//   anything they write after it becomes the row's last message. An API session's read opens
//   every active thread (one cheap call each; its sends see no thread);
// - it has no date (X labels older messages only "Nov 3"), its last message is theirs, and it
//   changed since the last read stored it (another preview), from someone we messaged: a reply
//   read on another device is no longer unread;
// - its last message is theirs and it moved up the list since the last read (it now stands above
//   a row it stood below): the list is ordered by last activity, so it holds something newer,
//   even when the new message reads like the stored preview ("ok" twice) and has no date.
import type { Queryable } from '../db.ts'
import type { InboxConversation } from '../platforms/types.ts'

/**
 * Message requests are people who wrote first: a reply to a DM of ours lands in the inbox, never
 * among the requests, and neither site's list shows a requests indicator the adapters know
 * (platforms.md: X Chat's inbox rows; Instagram's inbox JSON), so the requests page is read on
 * a slower cadence only to keep the pending count fresh.
 */
export const REQUESTS_EVERY_MS = 15 * 60_000

/** When each account's requests were last read (database time), by this runner. */
const requestsReadAt = new Map<string, number>()

/**
 * Whether this read should load the requests page too. An account never read before has its
 * requests read at once. One read before (by a runner that stopped, or by this one before a
 * restart) had them read within the cadence, so its first read here waits a share of the
 * cadence that its id decides: a restarted runner's first reads do not all load the requests
 * page (500 accounts: 500 extra page loads in its first minutes), and each is read within one cadence.
 */
export function requestsDue(accountId: string, now: Date, readBefore = false): boolean {
  let last = requestsReadAt.get(accountId)
  if (last === undefined && readBefore) {
    last = now.getTime() - REQUESTS_EVERY_MS + spreadOf(accountId)
    requestsReadAt.set(accountId, last)
  }
  return last === undefined || now.getTime() - last >= REQUESTS_EVERY_MS || now.getTime() < last
}

/** A share of the requests cadence fixed by the account's id (a uuid: its first 32 bits). */
function spreadOf(accountId: string): number {
  const bits = Number.parseInt(accountId.replace(/-/g, '').slice(0, 8), 16)
  return Number.isNaN(bits) ? 0 : bits % REQUESTS_EVERY_MS
}

export function requestsRead(accountId: string, at: Date): void {
  requestsReadAt.set(accountId, at.getTime())
}

/** The text of the newest campaign DM this account sent to each person since `since`, by lower-case username. */
export async function campaignDmsSince(
  db: Queryable,
  accountId: string,
  since: Date,
): Promise<Map<string, string>> {
  const { rows } = await db.query<{ peer: string; text: string | null }>(
    `select distinct on (peer) lower(ltrim(d.target_username, '@')) as peer, d.message_sent as text
       from public.dm_logs d
      where d.account_id = $1 and d.status in ('sent', 'uncertain') and d.sent_at >= $2
      order by peer, d.sent_at desc`,
    [accountId, since],
  )
  return new Map(rows.filter((r) => r.text).map((r) => [r.peer, r.text as string]))
}

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim()

/** Whether a row's preview shows this text (a preview may be cut short with an ellipsis). */
function previewOf(preview: string, text: string): boolean {
  const shown = normalise(preview)
    .replace(/(…|\.\.\.)$/, '')
    .trimEnd()
  return shown.length > 0 && normalise(text).startsWith(shown)
}

/** Each stored conversation's last message preview, by lower-case username (what the last read saw). */
export async function storedPreviews(db: Queryable, accountId: string): Promise<Map<string, string>> {
  const { rows } = await db.query<{ peer: string; preview: string | null }>(
    `select lower(ltrim(peer_username, '@')) as peer, last_message_preview as preview
       from public.inbox_threads where account_id = $1`,
    [accountId],
  )
  return new Map(rows.map((r) => [r.peer, r.preview ?? '']))
}

/**
 * The rows that moved up since the last read listed `previousOrder` (thread ids, top first): each
 * now stands above a row it stood below. Rows new to the list are not counted here.
 */
export function movedUp(conversations: InboxConversation[], previousOrder: string[]): Set<string> {
  const before = new Map(previousOrder.map((id, rank) => [id, rank]))
  const moved = new Set<string>()
  // the best (smallest) previous rank among the rows now below: above one of them now, below it before
  let bestBelow = Number.POSITIVE_INFINITY
  for (const c of [...conversations].reverse()) {
    const rank = before.get(c.threadId)
    if (rank === undefined) continue
    if (bestBelow < rank) moved.add(c.threadId)
    bestBelow = Math.min(bestBelow, rank)
  }
  return moved
}

/**
 * The conversations that can hold an incoming message newer than `since`. A row the page gives no
 * date for (X labels older messages only "Nov 3") is opened when its last message is theirs and
 * the row changed since we stored the conversation: a preview other than the stored one, from
 * someone we messaged (a reply read on another device is no longer unread). A row whose last
 * message is theirs is opened too when it moved up the list since `previousOrder` was read.
 */
export function conversationsToOpen(
  conversations: InboxConversation[],
  since: Date,
  campaignDms: Map<string, string>,
  previews: Map<string, string> = new Map(),
  previousOrder: string[] = [],
): InboxConversation[] {
  const moved = movedUp(
    conversations.filter((c) => !c.request),
    previousOrder,
  )
  return conversations.filter((c) => {
    if (c.unread) return true
    if (moved.has(c.threadId) && c.lastMessage.direction === 'incoming') return true
    const peer = c.peer.username.replace(/^@/, '').toLowerCase()
    if (c.lastMessage.at === null) {
      const stored = previews.get(peer)
      const known = stored !== undefined || campaignDms.has(peer)
      return known && c.lastMessage.direction === 'incoming' && !previewOf(c.lastMessage.text, stored ?? '')
    }
    if (Date.parse(c.lastMessage.at) <= since.getTime()) return false
    if (c.lastMessage.direction !== 'outgoing') return true
    const sent = campaignDms.get(peer)
    return sent === undefined || !previewOf(c.lastMessage.text, sent)
  })
}
