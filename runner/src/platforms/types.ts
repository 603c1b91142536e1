// What the platform adapters hand back to the job handlers, the same for X and Instagram.
// Pure types and one error class: no browser or Node dependency (the domain package is neither).
import type { LayoutChangedError } from './layout.ts'
import type { Platform } from './names.ts'

/** A browser cookie as sessions are saved and restored: one definition with the cookie parser's. */
export type { SessionCookie } from '@reachflow/domain'
export type { Platform }

export type StopKind =
  /** X 88 / HTTP 429 / Instagram "Please wait a few minutes". Pause the account, resume later. */
  | 'rate_limit'
  /** X 226 "looks automated" / Instagram feedback_required. Stop the account. */
  | 'automation'
  /** X 326, /account/access. Stop the account: the user must unlock it. */
  | 'locked'
  /** X 32, /i/flow/login; Instagram login_required. The saved session no longer works. */
  | 'unauthenticated'
  /** Instagram checkpoint (/challenge/) or X "Verify your identity": needs the user. */
  | 'challenge'
  /** X Chat passcode missing, wrong, or X Chat locked after too many tries. */
  | 'chat_locked'
  /** "Something went wrong. Try reloading." */
  | 'page_error'
  /** X 349 / Instagram "can't receive your message": skip this lead. */
  | 'cannot_message'
  /** X 476: the recipient accepts requests only from verified senders: skip this lead. */
  | 'requires_verified'
  /** The recipient takes no DMs (X's closed-inbox notice in place of the composer): skip this lead. */
  | 'closed_inbox'
  /** The recipient does not exist (any more): skip this lead. */
  | 'user_not_found'

export interface StopSignal {
  platform: Platform
  kind: StopKind
  /** The platform's own code: '88', '429', '226', '326', '32', '349', '476', 'feedback_required', … */
  code: string
  /** account: pause the account (account_flagged); lead: skip this lead with the reason. */
  scope: 'account' | 'lead'
  message: string
  /** When a rate limit resets, if the platform said so. */
  resetAt?: string
}

const LEAD_KINDS: StopKind[] = ['cannot_message', 'requires_verified', 'closed_inbox', 'user_not_found']

export function stopSignal(
  platform: Platform,
  kind: StopKind,
  code: string,
  message: string,
  resetAt?: string,
): StopSignal {
  return {
    platform,
    kind,
    code,
    scope: LEAD_KINDS.includes(kind) ? 'lead' : 'account',
    message,
    ...(resetAt ? { resetAt } : {}),
  }
}

/** Thrown by scraping and inbox reads when the platform gives a stop signal. */
export class StopSignalError extends Error {
  constructor(readonly signal: StopSignal) {
    super(`${signal.platform} stop signal ${signal.kind} (${signal.code}): ${signal.message}`)
    this.name = 'StopSignalError'
  }
}

/** Thrown when an operation exceeds its hard time limit (the page is discarded). */
export class OperationTimeoutError extends Error {
  constructor(
    readonly operation: string,
    readonly ms: number,
  ) {
    super(`${operation} did not finish within ${Math.round(ms / 1000)} s`)
    this.name = 'OperationTimeoutError'
  }
}

/**
 * The outcome of one DM. `sent` only when the page confirmed delivery (platforms.md's rule);
 * `uncertain` when the send button was pressed but delivery was not confirmed: record it and
 * resolve it by reading the thread, never resend blindly; `failed` when nothing was sent
 * (safe to retry later unless `signal` says to stop the account or skip the lead).
 * A changed page before send was pressed is thrown as LayoutChangedError (nothing went out);
 * after it was pressed, it is `uncertain` with `siteChange` (the site's doing, not the account's).
 */
export type SendResult =
  | {
      status: 'sent'
      threadId: string
      messageId: string
      sentAt: string
      /**
       * The thread's messages as the send found it before typing (browser sessions): the inbox read
       * skips a thread whose last message is a campaign DM, so what the other side wrote just
       * before it is recorded from here (sending/seen-replies.ts).
       */
      seen?: ThreadMessage[]
    }
  | {
      status: 'uncertain'
      threadId: string | null
      reason: string
      signal?: StopSignal
      siteChange?: LayoutChangedError
      /**
       * The platform ids of the thread's rows the send saw before typing (browser sessions): none of
       * them can be this send, whatever its text, when the thread is checked later.
       */
      seenBefore?: string[]
    }
  | {
      status: 'failed'
      threadId: string | null
      reason: string
      signal?: StopSignal
      /**
       * The page ran out of time before send was pressed (a slow machine or network, the site said
       * nothing): nothing was attempted, so nothing is held against the account.
       */
      outOfTime?: true
      /**
       * The platform said to wait until then (X API rate-limit headers, 429): nothing was attempted,
       * the account is not to blame, and the send goes again after that time.
       */
      retryAt?: string
    }

/** Where to send: an existing thread id, or the recipient (id when known, else username). */
export interface DmTarget {
  threadId?: string
  userId?: string
  username?: string
}

export interface ThreadMessage {
  id: string
  text: string
  direction: 'outgoing' | 'incoming'
  /** X: the outgoing row's state (pending | delivered | failed) or received; Instagram: sent. */
  status: string
  at: string | null
}

export interface InboxConversation {
  threadId: string
  peer: { id: string | null; username: string }
  unread: boolean
  /** A message request (the peer wrote first and we never answered). */
  request: boolean
  lastMessage: { text: string; direction: 'outgoing' | 'incoming' | null; at: string | null }
}

export interface Reply {
  threadId: string
  peer: { id: string | null; username: string }
  messages: ThreadMessage[]
}

/**
 * How an uncertain send turned out after reading the thread; `unreadable` when the thread could not
 * tell (X: the last message stored before the send no longer shows): it stays uncertain.
 */
export type UncertainResolution =
  | { status: 'sent'; messageId: string; sentAt: string | null }
  | { status: 'not_sent' }
  | { status: 'unreadable'; reason: string }

/**
 * An unconfirmed send to look for: its thread and exact text, when it was claimed, and (where
 * stored) the platform id of the thread's last message stored before it: the send is below it.
 */
export interface UnconfirmedSend {
  threadId: string
  text: string
  since: Date
  after?: string | null
  /** The rows the send saw before typing (where recorded): an older row with the same text is not it. */
  seenBefore?: string[] | null
}

export type ScrapeSource = 'followers' | 'following' | 'hashtag' | 'keyword'

export interface ScrapedProfile {
  platformId: string
  username: string
  name: string
  bio: string
  location: string
  followers: number | null
  following: number | null
  posts: number | null
  /** Legacy/organisation verification (X) or the verified badge (Instagram). */
  verified: boolean
  /** X Premium's blue check; false on Instagram. */
  blueVerified: boolean
  professionalType: 'Business' | 'Creator' | null
  isBusiness: boolean
  /** Whether the profile accepts our DMs, when the platform says (X can_dm); null when unknown. */
  canDm: boolean | null
  protected: boolean
  /** Texts of the profile's posts the scrape saw (hashtag sources on X); absent when none. */
  recentPosts?: string[]
}

export interface ScrapePage {
  profiles: ScrapedProfile[]
  /** Pass back to get the next page; null at the end (or when the platform repeated the cursor). */
  nextCursor: string | null
  rateLimit?: { limit: number; remaining: number; resetAt: string }
}

export interface ScrapeRequest {
  source: ScrapeSource
  /** A username (followers/following), a hashtag with or without #, or keywords. */
  value: string
  cursor?: string | null
}

/** Who a full sign-in (the signed-in home page and the account menu) saw, and when (ms since epoch). */
export interface SeenSignedIn {
  identity: { id: string; username: string; name: string }
  checkedAt: number
}

/** What a job handler needs from a signed-in account, the same on both platforms. */
export interface PlatformSession {
  readonly platform: Platform
  /** Drives no browser (an official API): it holds no browser memory while it waits warm. */
  readonly browserless?: boolean
  readonly user: { id: string; username: string; name: string }
  /**
   * What the session's last full sign-in saw: this one's, or the saved one's it was restored from
   * (sessions/restore.ts); none for a session that cannot be restored.
   */
  readonly seen?: SeenSignedIn | null
  /**
   * How far the runner's clock (the database's internal.now(), shifted in tests) is ahead of this
   * machine's: a page that dates messages only by labels ("10:09 AM") is read on that clock
   * (inbox/clock.ts sets it before a read).
   */
  clockOffsetMs?: number
  sendDm(target: DmTarget, text: string): Promise<SendResult>
  /**
   * The thread's messages. A browser session leaves the thread afterwards (an open thread marks what
   * arrives read) unless `stay`: the caller sends into it next, so the send need not load it again.
   */
  readThread(threadId: string, options?: { stay?: boolean }): Promise<ThreadMessage[]>
  resolveUncertain(sent: UnconfirmedSend): Promise<UncertainResolution>
  readInbox(options?: { includeRequests?: boolean }): Promise<InboxConversation[]>
  readReplies(since: Date): Promise<Reply[]>
  scrape(request: ScrapeRequest): Promise<ScrapePage>
  /** Closes the page while the warm session waits for its next job (see SessionPages.park). */
  park(): Promise<void>
  close(): Promise<void>
}

/** How far one send got, shared by the send's steps and its caller (which may give up first). */
export interface SendState {
  pressedSend: boolean
  threadId: string | null
  /** The caller already answered (a deadline, an error): the steps still running must not send. */
  abandoned: boolean
  /** The thread's messages when the steps opened it, before typing. */
  seen: ThreadMessage[] | null
}

export function newSendState(threadId: string | null): SendState {
  return { pressedSend: false, threadId, abandoned: false, seen: null }
}

/**
 * Marks the moment of pressing send. A send whose caller gave up at its deadline keeps running
 * on the discarded page; were it to press send now, a DM recorded "not sent" (and retried) would
 * go out: it throws instead.
 */
export function markPressingSend(state: SendState): void {
  if (state.abandoned) throw new Error('The send was abandoned at its deadline before pressing send.')
  state.pressedSend = true
}
