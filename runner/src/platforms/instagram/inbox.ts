// Reading Instagram Direct from its pages: the inbox and message requests as listed (inbox-page.ts),
// threads as drawn (thread-read.ts), whether an uncertain send went out. The direct_v2 JSON, which
// the 2026 web page may not be served, is only extra evidence where it answers: the other side's id
// and exact times. Ids always come from the page, so a message keeps one id either way.
import type { Page } from 'puppeteer-core'
import { waitForFirst } from '../../browser/page-wait.ts'
import { fillPath } from '../facts.ts'
import type { InboxConversation, Reply, ThreadMessage, UncertainResolution } from '../types.ts'
import { StopSignalError } from '../types.ts'
import type { IgPageContext } from './context.ts'
import { readInboxPage } from './inbox-page.ts'
import { igConversation, igMessages, igThreads } from './items.ts'
import { igFetchInPage } from './page-api.ts'
import { igSignalFromResponse } from './signals.ts'
import { readWholeThread, withJsonTimes, withPageIds } from './thread-read.ts'

/** The direct_v2 JSON at `path`, read from the page it is on, or undefined when it does not answer (a stop signal in its answer still stops). */
async function jsonIfServed(session: IgPageContext, page: Page, path: string): Promise<unknown> {
  const answer = await igFetchInPage(session.facts, page, path).catch(() => undefined)
  if (!answer) return undefined
  const signal = igSignalFromResponse(session.facts, answer.status, answer.body)
  if (signal) throw new StopSignalError(signal)
  return answer.status === 200 ? answer.body : undefined
}

/** The thread's newest items from the direct_v2 JSON, or undefined when it does not answer. Extra evidence only. */
export async function threadJsonIfServed(
  session: IgPageContext,
  page: Page,
  threadId: string,
): Promise<ThreadMessage[] | undefined> {
  const path = fillPath(session.facts.api.thread, { id: threadId, limit: '20' })
  const body = await jsonIfServed(session, page, path)
  return body === undefined ? undefined : igMessages((body as { thread?: unknown }).thread)
}

/**
 * The thread as its page shows it, oldest first, with page ids and, where the JSON answers, its
 * times. Opening the thread marks it seen, as a person looking would; unless the caller stays to
 * send, the page leaves it so a later reply is not marked seen too.
 */
export async function readIgThread(
  session: IgPageContext,
  threadId: string,
  options: { stay?: boolean } = {},
): Promise<ThreadMessage[]> {
  const messages = await session.run('read thread', session.timeouts.operationMs, async (page) => {
    await session.goto(page, session.path('thread', { id: threadId }))
    const { selectors } = session.facts
    await waitForFirst(page, { list: { selector: selectors.messageList } }, session.timeouts.navigationMs)
    session.assertSignedIn(page)
    const shown = await readWholeThread(page, selectors)
    if (!shown) throw new Error(`The Instagram thread ${threadId} shows no message list`)
    return withJsonTimes(withPageIds(threadId, shown), await threadJsonIfServed(session, page, threadId))
  })
  if (!options.stay) await session.leaveThread()
  return messages
}

/** Whether a send the adapter could not confirm went out: our message with its exact text in the thread. */
export async function resolveIgUncertain(
  session: IgPageContext,
  sent: { threadId: string; text: string; since: Date },
): Promise<UncertainResolution> {
  const earliest = sent.since.getTime() - 120_000
  const match = (await readIgThread(session, sent.threadId)).findLast(
    (m) =>
      m.direction === 'outgoing' && m.text === sent.text && (m.at === null || Date.parse(m.at) >= earliest),
  )
  return match ? { status: 'sent', messageId: match.id, sentAt: match.at } : { status: 'not_sent' }
}

export async function readIgInbox(
  session: IgPageContext,
  options: { includeRequests?: boolean } = {},
): Promise<InboxConversation[]> {
  return session.run('read inbox', session.timeouts.operationMs, async (page) => {
    const { api } = session.facts
    const inbox = await readInboxPage(session, page, session.path('inbox'), false)
    const fromJson = (await jsonIfServed(session, page, api.inbox)) ?? {}
    if (!(options.includeRequests ?? true)) return withJsonEvidence(inbox, fromJson, false)
    const requests = await readInboxPage(session, page, session.path('requests'), true)
    const pendingJson = (await jsonIfServed(session, page, api.pendingInbox)) ?? {}
    return [...withJsonEvidence(inbox, fromJson, false), ...withJsonEvidence(requests, pendingJson, true)]
  })
}

/** A preview shows a message's words on one line. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim()

/** The other side's id and the last message's time from the JSON, where it lists the same last message. */
function withJsonEvidence(rows: InboxConversation[], body: unknown, request: boolean): InboxConversation[] {
  const listed = new Map(
    igThreads(body).map((t) => [igConversation(t, request).threadId, igConversation(t, request)]),
  )
  return rows.map((row) => {
    const json = listed.get(row.threadId)
    if (!json || oneLine(json.lastMessage.text) !== oneLine(row.lastMessage.text)) return row
    return {
      ...row,
      peer: { ...row.peer, id: json.peer.id },
      lastMessage: { ...row.lastMessage, at: json.lastMessage.at },
    }
  })
}

/**
 * Replies since `since`: every conversation listed unread or whose last message is theirs (a reply
 * read on another device is no longer unread), and in it what they wrote after our last message
 * (after `since` too, where the JSON dates it).
 */
export async function readIgReplies(session: IgPageContext, since: Date): Promise<Reply[]> {
  const replies: Reply[] = []
  for (const conversation of await readIgInbox(session)) {
    const { lastMessage } = conversation
    if (!conversation.unread && lastMessage.direction !== 'incoming') continue
    const thread = await readIgThread(session, conversation.threadId)
    const ourLast = thread.findLastIndex((m) => m.direction === 'outgoing')
    const messages = thread
      .slice(ourLast + 1)
      .filter((m) => m.direction === 'incoming' && (m.at === null || Date.parse(m.at) > since.getTime()))
    if (messages.length > 0)
      replies.push({ threadId: conversation.threadId, peer: conversation.peer, messages })
  }
  return replies
}
