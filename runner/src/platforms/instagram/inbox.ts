// Reading Instagram Direct: the inbox, pending requests, threads and replies through the direct_v2
// JSON; whether an uncertain send went out from that JSON where it answers, else from the thread
// page (the 2026 web page may not serve the JSON to anyone but the mobile app).
import type { Page } from 'puppeteer-core'
import { waitForFirst } from '../../browser/page-wait.ts'

import { fillPath } from '../facts.ts'
import type { InboxConversation, Reply, ThreadMessage, UncertainResolution } from '../types.ts'
import { StopSignalError } from '../types.ts'
import { igConversation, igMessages, igThreads } from './items.ts'
import { type IgAnswer, igFetchInPage } from './page-api.ts'
import type { InstagramSession } from './session.ts'
import { igSignalFromResponse } from './signals.ts'
import { pageMessageId, readThreadPage } from './thread-page.ts'

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

/**
 * The thread's items from the direct_v2 JSON, read from the page it is on, or undefined when that
 * JSON does not answer (a stop signal in its answer still stops). Extra evidence only.
 */
export async function threadJsonIfServed(
  session: InstagramSession,
  page: Page,
  threadId: string,
): Promise<ThreadMessage[] | undefined> {
  const path = fillPath(session.facts.api.thread, { id: threadId, limit: '20' })
  const answer = await igFetchInPage(session.facts, page, path).catch(() => undefined)
  if (!answer) return undefined
  const signal = igSignalFromResponse(session.facts, answer.status, answer.body)
  if (signal) throw new StopSignalError(signal)
  return answer.status === 200 ? igMessages((answer.body as { thread?: unknown }).thread) : undefined
}

export async function resolveIgUncertain(
  session: InstagramSession,
  sent: { threadId: string; text: string; since: Date },
): Promise<UncertainResolution> {
  let messages: ThreadMessage[]
  try {
    messages = await readIgThread(session, sent.threadId)
  } catch (error) {
    if (error instanceof StopSignalError) throw error
    return resolveFromPage(session, sent) // the JSON does not answer: the page decides
  }
  const earliest = sent.since.getTime() - 120_000
  const match = messages.find(
    (m) =>
      m.direction === 'outgoing' && m.text === sent.text && (m.at === null || Date.parse(m.at) >= earliest),
  )
  return match ? { status: 'sent', messageId: match.id, sentAt: match.at } : { status: 'not_sent' }
}

/** Our message with exactly that text among the newest the thread page shows (it gives no time). */
async function resolveFromPage(
  session: InstagramSession,
  sent: { threadId: string; text: string },
): Promise<UncertainResolution> {
  const shown = await session.run('read thread page', session.timeouts.operationMs, async (page) => {
    await session.goto(page, session.path('thread', { id: sent.threadId }))
    await waitForFirst(
      page,
      { list: { selector: session.facts.selectors.messageList } },
      session.timeouts.navigationMs,
    )
    session.assertSignedIn(page)
    return readThreadPage(page, session.facts.selectors)
  })
  await session.leaveThread()
  if (!shown) throw new Error(`The Instagram thread ${sent.threadId} shows no message list`)
  return shown.some((m) => m.outgoing && m.text === sent.text)
    ? { status: 'sent', messageId: pageMessageId(sent.threadId, sent.text), sentAt: null }
    : { status: 'not_sent' }
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
