// Reading X Chat from the DOM the page decrypted (its payloads are end-to-end encrypted): a thread's
// messages (to resolve an uncertain send), the inbox and message requests (unread markers), and the
// replies that arrived since a moment.
import type { InboxConversation, Reply, ThreadMessage, UncertainResolution } from '../types.ts'
import type { XSession } from './session.ts'
import { readConversationRows, readRows } from './thread-dom.ts'

/** The messages of a thread as X shows them after a fresh load (decrypted by the page). */
export async function readXThread(session: XSession, threadId: string): Promise<ThreadMessage[]> {
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
      m.status === 'delivered' &&
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
