// Reading X Chat from the DOM the page decrypted (its payloads are end-to-end encrypted): a thread's
// messages (to resolve an uncertain send by its text), the inbox and message requests (unread
// markers, time labels), and the replies that arrived since a moment.
import type {
  InboxConversation,
  Reply,
  ThreadMessage,
  UncertainResolution,
  UnconfirmedSend,
} from '../types.ts'
import type { XPageContext } from './context.ts'
import { readConversationRows, readRows } from './thread-dom.ts'

/** The messages of a thread as X shows them after a fresh load (decrypted by the page). */
export async function readXThread(session: XPageContext, threadId: string): Promise<ThreadMessage[]> {
  return session.run('read thread', session.timeouts.operationMs, async (page) => {
    const opened = await session.openChatPage(
      page,
      session.path('thread', { id: threadId }),
      session.facts.chat.conversationPanel,
      'inbox',
      'read thread: conversation panel',
    )
    if (opened === 'missing') return []
    return readRows(session, page, 'inbox')
  })
}

/**
 * Whether an uncertain send went out, from the thread alone (its rows carry no machine-readable
 * time): a row laid out as ours holding the exact text, below the last message stored before the
 * send (the whole thread when none was stored), and not among the rows the send saw before typing.
 * A status marker is not asked for. When that stored message no longer shows, the thread cannot
 * tell: unreadable, and the send stays uncertain.
 */
export async function resolveXUncertain(
  session: XPageContext,
  sent: UnconfirmedSend,
): Promise<UncertainResolution> {
  const rows = await readXThread(session, sent.threadId)
  const anchor = sent.after ? rows.findIndex((m) => m.id === sent.after) : -1
  if (sent.after && anchor === -1)
    return {
      status: 'unreadable',
      reason: 'The last message stored before the send no longer shows in the thread.',
    }
  // a row the send saw before typing is older than it, whatever its text
  const older = new Set(sent.seenBefore ?? [])
  const match = rows
    .slice(anchor + 1)
    .find((m) => m.direction === 'outgoing' && m.text === sent.text && !older.has(m.id))
  return match ? { status: 'sent', messageId: match.id, sentAt: match.at } : { status: 'not_sent' }
}

/** Conversations in the inbox and (optionally) message requests, with unread markers. */
export async function readXInbox(
  session: XPageContext,
  options: { includeRequests?: boolean } = {},
): Promise<InboxConversation[]> {
  return session.run('read inbox', session.timeouts.operationMs, async (page) => {
    const panel = session.facts.chat.inboxPanel
    await session.openChatPage(page, session.path('chat'), panel, 'inbox', 'read inbox: inbox panel')
    const conversations = await readConversationRows(session, page, false)
    if (options.includeRequests ?? true) {
      await session.openChatPage(
        page,
        session.path('chatRequests'),
        panel,
        'inbox',
        'read requests: inbox panel',
      )
      conversations.push(...(await readConversationRows(session, page, true)))
    }
    return conversations
  })
}

/**
 * Whether a time read from a label (to the minute at best) may be after `since`: its minute is not
 * before since's. A reply in the same minute is not missed; null (no label X dates) counts as new.
 */
function mayBeAfter(at: string | null, since: Date): boolean {
  return at === null || Date.parse(at) >= Math.floor(since.getTime() / 60_000) * 60_000
}

/** Messages from the other side that may have arrived after `since` (to the minute), per conversation. */
export async function readXReplies(session: XPageContext, since: Date): Promise<Reply[]> {
  // any conversation active since then: a reply may sit under a later message of ours, and one
  // read on another device is no longer unread
  const candidates = (await readXInbox(session)).filter(
    (c) => c.unread || (c.lastMessage.at !== null && mayBeAfter(c.lastMessage.at, since)),
  )
  const replies: Reply[] = []
  for (const conversation of candidates) {
    const messages = (await readXThread(session, conversation.threadId)).filter(
      (m) => m.direction === 'incoming' && mayBeAfter(m.at, since),
    )
    if (messages.length > 0)
      replies.push({ threadId: conversation.threadId, peer: conversation.peer, messages })
  }
  return replies
}
