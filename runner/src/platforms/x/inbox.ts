// Reading X Chat: a thread's messages (to resolve an uncertain send), the inbox and message
// requests (unread markers), and the replies that arrived since a moment.
import type { InboxConversation, Reply, ThreadMessage, UncertainResolution } from '../types.ts'
import { X_PATHS, X_SELECTORS, X_SEND_STATUS } from './selectors.ts'
import type { XSession } from './session.ts'
import { readConversationRows, readRows } from './thread-dom.ts'

const delivered: readonly string[] = X_SEND_STATUS.delivered

/** The messages of a thread as X shows them after a fresh load. */
export async function readXThread(session: XSession, threadId: string): Promise<ThreadMessage[]> {
  return session.run('read thread', session.timeouts.operationMs, async (page) => {
    await session.openChatPage(page, X_PATHS.thread(threadId), X_SELECTORS.messageList)
    if (await page.$(X_SELECTORS.emptyState)) return []
    return readRows(page)
  })
}

/**
 * Whether an uncertain send went out: an outgoing message with the exact text, delivered, sent at
 * or after `since` (less a small allowance for clock skew). Call it a while after the send.
 */
export async function resolveXUncertain(
  session: XSession,
  sent: { threadId: string; text: string; since: Date },
): Promise<UncertainResolution> {
  const earliest = sent.since.getTime() - 120_000
  const match = (await readXThread(session, sent.threadId)).find(
    (m) =>
      m.direction === 'outgoing' &&
      m.text === sent.text &&
      delivered.includes(m.status) &&
      (m.at === null || Date.parse(m.at) >= earliest),
  )
  return match ? { status: 'sent', messageId: match.id, sentAt: match.at } : { status: 'not_sent' }
}

/** Conversations in the inbox and (optionally) message requests, with unread markers. */
export async function readXInbox(
  session: XSession,
  options: { includeRequests?: boolean } = {},
): Promise<InboxConversation[]> {
  return session.run('read inbox', session.timeouts.operationMs, async (page) => {
    await session.openChatPage(page, X_PATHS.chat, X_SELECTORS.inboxList)
    const conversations = await readConversationRows(page, session.user.id, false)
    if (options.includeRequests ?? true) {
      await session.openChatPage(page, X_PATHS.chatRequests, X_SELECTORS.requestsList)
      conversations.push(...(await readConversationRows(page, session.user.id, true)))
    }
    return conversations
  })
}

/** Messages from the other side that arrived after `since`, per conversation. */
export async function readXReplies(session: XSession, since: Date): Promise<Reply[]> {
  // any conversation active since then: a reply may sit under a later message of ours
  const candidates = (await readXInbox(session)).filter(
    (c) => c.unread || (c.lastMessage.at !== null && Date.parse(c.lastMessage.at) > since.getTime()),
  )
  const replies: Reply[] = []
  for (const conversation of candidates) {
    const messages = (await readXThread(session, conversation.threadId)).filter(
      (m) => m.direction === 'incoming' && (m.at === null || Date.parse(m.at) > since.getTime()),
    )
    if (messages.length > 0)
      replies.push({ threadId: conversation.threadId, peer: conversation.peer, messages })
  }
  return replies
}
