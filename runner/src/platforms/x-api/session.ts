// An official X account as a PlatformSession: no browser, no sign-in, no proxy. DMs go out through
// POST /2/dm_conversations/with/:id/messages, conversations and replies are read from the DM events
// endpoints, so the one send engine, its at-most-once record, pacing, caps and the inbox work
// unchanged. X's answers become the same outcomes and stop signals as the browser path: a spent
// rate limit waits (nothing attempted, nothing failed), a person who cannot be messaged is skipped,
// 401 after one refresh puts the account in error, an unanswered send is uncertain and settled by
// reading the conversation.
import {
  type ApiAnswer,
  dmFailureOf,
  X_DM_EVENTS_PAGE_SIZE,
  X_INBOX_EVENTS_PER_READ,
  type XApiClient,
  type XOfficialCredentials,
} from '@reachflow/domain'
import type { Keyring } from '../../crypto.ts'
import type { Queryable } from '../../db.ts'
import {
  type DmTarget,
  type InboxConversation,
  type PlatformSession,
  type Reply,
  type ScrapePage,
  type SendResult,
  type StopSignal,
  StopSignalError,
  stopSignal,
  type ThreadMessage,
  type UncertainResolution,
} from '../types.ts'
import { xThreadId } from '../x/send.ts'
import { XApiGrant } from './grant.ts'

/** The code the runner records for X API v2 refusals that carry no numeric code of their own. */
export const X_API_UNAUTHORIZED = 'x_api_401'
const EVENT_QUERY =
  'dm_event.fields=id,text,sender_id,created_at,dm_conversation_id&event_types=MessageCreate'
/** How many pages of the account's DM events one inbox read looks at (the cost estimate's reads). */
const INBOX_PAGES = X_INBOX_EVENTS_PER_READ / X_DM_EVENTS_PAGE_SIZE

interface DmEvent {
  id: string
  text: string
  sender_id: string
  created_at: string
  dm_conversation_id: string
}
interface EventsPage {
  data?: DmEvent[]
  includes?: { users?: { id: string; username: string }[] }
  meta: { next_token?: string }
}

export interface XApiSessionOptions {
  account: { id: string; username: string; platformUserId: string }
  credentials: XOfficialCredentials
  client: XApiClient
  db: Queryable
  keyring: Keyring
  now: () => number
}

export class XApiSession implements PlatformSession {
  readonly browserless = true
  readonly platform = 'x' as const
  readonly user: { id: string; username: string; name: string }
  readonly #grant: XApiGrant
  readonly #usernames = new Map<string, string>()

  constructor(options: XApiSessionOptions) {
    const { account } = options
    this.user = { id: account.platformUserId, username: account.username, name: account.username }
    this.#grant = new XApiGrant({ ...options, accountId: account.id, selfId: account.platformUserId })
  }

  async sendDm(target: DmTarget, text: string): Promise<SendResult> {
    const waitUntil = this.#grant.waitUntil('send')
    if (waitUntil !== null) return rateLimited(waitUntil)
    const peerId = await this.#peerOf(target)
    if (!peerId)
      return {
        status: 'failed',
        threadId: null,
        reason: `@${target.username ?? '?'} does not exist on X`,
        signal: stopSignal('x', 'user_not_found', '404', 'The user does not exist on X.'),
      }
    const threadId = xThreadId(this.user.id, peerId)
    let answer: ApiAnswer<{ data: { dm_conversation_id: string; dm_event_id: string } }>
    try {
      answer = await this.#grant.call<{ data: { dm_conversation_id: string; dm_event_id: string } }>(
        'send',
        'POST',
        `/2/dm_conversations/with/${peerId}/messages`,
        { text },
      )
    } catch (error) {
      // the request may have reached X: never resend blindly, read the conversation later
      return {
        status: 'uncertain',
        threadId,
        reason: `X did not answer the send: ${(error as Error).message}`,
      }
    }
    if (answer.ok)
      return {
        status: 'sent',
        threadId: answer.data.data.dm_conversation_id,
        messageId: answer.data.data.dm_event_id,
        sentAt: new Date(this.#grant.options.now()).toISOString(),
      }
    const failure = dmFailureOf(answer.status, answer.detail)
    const reason = `X API ${answer.status}: ${answer.detail}`
    switch (failure) {
      case 'rate_limited':
        return rateLimited(this.#grant.waitUntil('send') ?? this.#grant.options.now() + 15 * 60_000)
      case 'cannot_message':
        return {
          status: 'failed',
          threadId,
          reason,
          signal: /verified/i.test(answer.detail)
            ? stopSignal('x', 'requires_verified', '476', answer.detail)
            : stopSignal('x', 'cannot_message', '349', answer.detail),
        }
      case 'bad_request':
        // an id X does not know as a user it can message; anything else in our request is ours to fix
        return /participant/i.test(answer.detail) || answer.detail.includes('parameters')
          ? {
              status: 'failed',
              threadId: null,
              reason,
              signal: stopSignal('x', 'user_not_found', '400', answer.detail),
            }
          : { status: 'failed', threadId: null, reason }
      case 'server':
        // X failed while handling a send it may have stored: the conversation decides
        return { status: 'uncertain', threadId, reason }
      default:
        return { status: 'failed', threadId, reason, signal: accountSignal(failure, answer.detail) }
    }
  }

  async readThread(threadId: string): Promise<ThreadMessage[]> {
    const events = await this.#events(`/2/dm_conversations/${encodeURIComponent(threadId)}/dm_events`, 1)
    return events
      .map((e) => ({
        id: e.id,
        text: e.text,
        direction: e.sender_id === this.user.id ? ('outgoing' as const) : ('incoming' as const),
        status: e.sender_id === this.user.id ? 'delivered' : 'received',
        at: e.created_at,
      }))
      .reverse()
  }

  async resolveUncertain(sent: {
    threadId: string
    text: string
    since: Date
  }): Promise<UncertainResolution> {
    const found = (await this.readThread(sent.threadId)).find(
      (m) =>
        m.direction === 'outgoing' &&
        m.text === sent.text &&
        (m.at === null || Date.parse(m.at) >= sent.since.getTime() - 5_000),
    )
    return found ? { status: 'sent', messageId: found.id, sentAt: found.at } : { status: 'not_sent' }
  }

  /** The account's conversations from its newest DM events (the API keeps no unread markers). */
  async readInbox(options: { includeRequests?: boolean } = {}): Promise<InboxConversation[]> {
    const events = await this.#events('/2/dm_events', INBOX_PAGES)
    const byThread = new Map<string, DmEvent[]>()
    for (const event of events)
      byThread.set(event.dm_conversation_id, [...(byThread.get(event.dm_conversation_id) ?? []), event])
    const conversations: InboxConversation[] = []
    for (const [threadId, list] of byThread) {
      const peerId = threadId.split('-').find((id) => id !== this.user.id) ?? ''
      const request = !list.some((e) => e.sender_id === this.user.id)
      if (request && options.includeRequests === false) continue
      const last = list[0] as DmEvent
      conversations.push({
        threadId,
        peer: { id: peerId, username: await this.#usernameOf(peerId) },
        unread: false,
        request,
        lastMessage: {
          text: last.text,
          direction: last.sender_id === this.user.id ? 'outgoing' : 'incoming',
          at: last.created_at,
        },
      })
    }
    return conversations
  }

  async readReplies(since: Date): Promise<Reply[]> {
    const replies: Reply[] = []
    for (const conversation of await this.readInbox()) {
      if (conversation.lastMessage.at === null || Date.parse(conversation.lastMessage.at) <= since.getTime())
        continue
      const messages = await this.readThread(conversation.threadId)
      if (
        messages.some(
          (m) => m.direction === 'incoming' && m.at !== null && Date.parse(m.at) > since.getTime(),
        )
      )
        replies.push({ threadId: conversation.threadId, peer: conversation.peer, messages })
    }
    return replies
  }

  scrape(): Promise<ScrapePage> {
    return Promise.reject(
      new Error('Official X accounts do not scrape: scraping stays with browser accounts.'),
    )
  }

  async park(): Promise<void> {}
  async close(): Promise<void> {}

  /** DM events newest first, up to `pages` pages; X's refusals thrown as stop signals. */
  async #events(path: string, pages: number): Promise<DmEvent[]> {
    const waitUntil = this.#grant.waitUntil('read')
    if (waitUntil !== null)
      throw new Error(`X API rate limit for DM events: waits until ${new Date(waitUntil).toISOString()}`)
    const events: DmEvent[] = []
    let token: string | undefined
    for (let page = 0; page < pages; page++) {
      const answer = await this.#grant.call<EventsPage>(
        'read',
        'GET',
        `${path}?${EVENT_QUERY}&expansions=sender_id&max_results=${X_DM_EVENTS_PAGE_SIZE}${token ? `&pagination_token=${encodeURIComponent(token)}` : ''}`,
      )
      if (!answer.ok) {
        const failure = dmFailureOf(answer.status, answer.detail)
        if (failure === 'unauthorized' || failure === 'locked')
          throw new StopSignalError(accountSignal(failure, answer.detail))
        throw new Error(`X API ${answer.status} reading DM events: ${answer.detail}`)
      }
      for (const user of answer.data.includes?.users ?? []) this.#usernames.set(user.id, user.username)
      events.push(...(answer.data.data ?? []))
      token = answer.data.meta.next_token
      if (!token) break
    }
    return events
  }

  async #usernameOf(id: string): Promise<string> {
    const known = this.#usernames.get(id)
    if (known) return known
    const answer = await this.#grant.call<{ data?: { username: string } }>('users', 'GET', `/2/users/${id}`)
    const username = answer.ok ? (answer.data.data?.username ?? id) : id
    this.#usernames.set(id, username)
    return username
  }

  async #peerOf(target: DmTarget): Promise<string | null> {
    if (target.userId) return target.userId
    if (target.threadId) return target.threadId.split('-').find((id) => id !== this.user.id) ?? null
    const username = (target.username ?? '').replace(/^@/, '')
    const answer = await this.#grant.call<{ data?: { id: string } }>(
      'users',
      'GET',
      `/2/users/by/username/${encodeURIComponent(username)}`,
    )
    if (!answer.ok) throw new Error(`X API ${answer.status} looking up @${username}: ${answer.detail}`)
    return answer.data.data?.id ?? null
  }
}

/** X said to wait: nothing was attempted, so the lead stays due and the account is not blamed. */
function rateLimited(resetAt: number): SendResult {
  const at = new Date(resetAt).toISOString()
  return {
    status: 'failed',
    threadId: null,
    reason: `X API rate limit: the account waits until ${at}`,
    retryAt: at,
  }
}

function accountSignal(failure: ReturnType<typeof dmFailureOf>, detail: string): StopSignal {
  if (failure === 'unauthorized')
    return stopSignal(
      'x',
      'unauthenticated',
      X_API_UNAUTHORIZED,
      'X no longer accepts the account’s access (401).',
    )
  if (failure === 'locked') return stopSignal('x', 'locked', '326', detail)
  return stopSignal('x', 'automation', '226', detail)
}
