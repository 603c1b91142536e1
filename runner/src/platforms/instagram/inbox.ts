// Reading Instagram Direct through the web app's JSON: a thread, the inbox and pending requests,
// replies since a moment, and whether an uncertain send went out.

import { fillPath } from '../facts.ts'
import type { InboxConversation, Reply, ThreadMessage, UncertainResolution } from '../types.ts'
import { StopSignalError } from '../types.ts'
import { igConversation, igMessages, igThreads } from './items.ts'
import { type IgAnswer, igFetchInPage } from './page-api.ts'
import type { InstagramSession } from './session.ts'
import { igSignalFromResponse } from './signals.ts'

async function call(session: InstagramSession, path: string): Promise<IgAnswer> {
  const page = await session.page()
  if (new URL(page.url()).origin !== new URL(session.baseUrl).origin) {
    await session.goto(page, session.facts.paths.inbox)
    session.assertSignedIn(page)
  }
  const answer = await igFetchInPage(session.facts, page, path)
  const signal = igSignalFromResponse(session.facts, answer.status, answer.body)
  if (signal) throw new StopSignalError(signal)
  if (answer.status !== 200) throw new Error(`Instagram ${path} answered HTTP ${answer.status}`)
  return answer
}

export async function readIgThread(
  session: InstagramSession,
  threadId: string,
  limit = 50,
): Promise<ThreadMessage[]> {
  return session.run('read thread', session.timeouts.operationMs, async () => {
    const path = fillPath(session.facts.api.thread, { id: threadId, limit: String(limit) })
    const answer = await call(session, path)
    return igMessages((answer.body as { thread?: unknown }).thread)
  })
}

export async function resolveIgUncertain(
  session: InstagramSession,
  sent: { threadId: string; text: string; since: Date },
): Promise<UncertainResolution> {
  const earliest = sent.since.getTime() - 120_000
  const match = (await readIgThread(session, sent.threadId)).find(
    (m) =>
      m.direction === 'outgoing' && m.text === sent.text && (m.at === null || Date.parse(m.at) >= earliest),
  )
  return match ? { status: 'sent', messageId: match.id, sentAt: match.at } : { status: 'not_sent' }
}

export async function readIgInbox(
  session: InstagramSession,
  options: { includeRequests?: boolean } = {},
): Promise<InboxConversation[]> {
  return session.run('read inbox', session.timeouts.operationMs, async () => {
    const { api } = session.facts
    const inbox = igThreads((await call(session, api.inbox)).body).map((t) => igConversation(t, false))
    if (!(options.includeRequests ?? true)) return inbox
    const pending = igThreads((await call(session, api.pendingInbox)).body).map((t) =>
      igConversation(t, true),
    )
    return [...inbox, ...pending]
  })
}

export async function readIgReplies(session: InstagramSession, since: Date): Promise<Reply[]> {
  const conversations = await readIgInbox(session)
  const replies: Reply[] = []
  for (const conversation of conversations) {
    const at = conversation.lastMessage.at ? Date.parse(conversation.lastMessage.at) : 0
    if (!conversation.unread && at <= since.getTime()) continue
    const messages = (await readIgThread(session, conversation.threadId)).filter(
      (m) => m.direction === 'incoming' && (m.at === null || Date.parse(m.at) > since.getTime()),
    )
    if (messages.length > 0)
      replies.push({ threadId: conversation.threadId, peer: conversation.peer, messages })
  }
  return replies
}
