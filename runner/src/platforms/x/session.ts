/// <reference lib="dom" />
// An X session in the browser: cookies set in the account's own context (behind its proxy), the
// signed-in check on /home, and the one-operation-at-a-time page with a hard time limit that the
// chat, send, read and scrape modules use. Everything it knows about x.com comes from `facts`.
import type { Page } from 'puppeteer-core'
import { pathStartsWith, textOf, waitForFirst } from '../../browser/page-wait.ts'
import type { AccountContext } from '../../browser/pool.ts'
import { REALISTIC_TYPING, type TypingOptions } from '../../browser/typing.ts'
import { regexOf } from '../facts.ts'
import { layoutChanged } from '../layout.ts'
import { newPageSession, PageSession, type PageSessionPlace } from '../page-session.ts'
import {
  type DmTarget,
  type InboxConversation,
  type PlatformSession,
  type Reply,
  type ScrapePage,
  type ScrapeRequest,
  type SeenSignedIn,
  type SendResult,
  type StopSignal,
  StopSignalError,
  stopSignal,
  type ThreadMessage,
  type UncertainResolution,
  type UnconfirmedSend,
} from '../types.ts'
import { openChat, type UnlockResult, unlockChat } from './chat-page.ts'
import {
  type ChatOpening,
  type ChatPageArgs,
  type ScrapeView,
  SETTLE_MS,
  type XPageContext,
  type XTimeouts,
} from './context.ts'
import { cookiesForSite, type ParsedXCookies, type XCookie } from './cookies.ts'
import { X_FACTS, type XFacts } from './facts.ts'
import { readXInbox, readXReplies, readXThread, resolveXUncertain } from './inbox.ts'
import { scrapeX } from './scrape.ts'
import { sendXDm } from './send.ts'

export type { UnlockResult } from './chat-page.ts'

export type { XTimeouts } from './context.ts'

export const DEFAULT_X_TIMEOUTS: XTimeouts = { navigationMs: 30_000, operationMs: 90_000, confirmMs: 20_000 }

export interface XSessionOptions extends PageSessionPlace<XFacts> {
  /** The account's X Chat passcode (4 digits), if it has one. */
  passcode?: string | null
  typing?: TypingOptions
  timeouts?: Partial<XTimeouts>
  /**
   * Restore the session without the home page: the cookies go into the context and the identity is
   * what the last full sign-in saw. The first operation's page is the check: X sends a signed-out or
   * locked session from any page to its login or access page, which the operations turn into the
   * same stop signals an open gives (sessions/restore.ts decides when a restore is allowed).
   */
  restore?: SeenSignedIn
}

export type OpenXSessionResult =
  | { status: 'ok'; session: XSession }
  | { status: 'expired' | 'locked'; signal: StopSignal }
  | { status: 'error'; message: string }
  /** The page did not load or render in time and X said nothing about the account. */
  | { status: 'slow'; message: string }

/** Opens the account's context with its cookies and checks /home shows the signed-in account. */
export async function openXSession(
  cookies: ParsedXCookies,
  options: XSessionOptions,
): Promise<OpenXSessionResult> {
  const session = await newPageSession(options, X_FACTS, (...made) => new XSession(...made, options))
  const { context, baseUrl, facts } = session
  try {
    await context.context.setCookie(...cookiesForSite(cookies.cookies, baseUrl).map(toBrowserCookie))
    if (options.restore) {
      session.user = { ...options.restore.identity }
      session.seen = options.restore
      return { status: 'ok', session }
    }
    const outcome = await session.run(
      'open session',
      session.timeouts.navigationMs + 10_000,
      async (page) => {
        await session.goto(page, facts.paths.home)
        const seen = await waitForFirst(
          page,
          {
            ok: { selector: facts.app.signedIn },
            expired: { url: session.signedOut },
            locked: { url: session.locked },
            rendered: { selector: facts.app.primaryColumn },
          },
          session.timeouts.navigationMs,
        )
        if (seen !== 'rendered') return seen
        // the home page rendered without the signed-in account's menu: give it a moment, then it changed
        const late = await waitForFirst(page, { ok: { selector: facts.app.signedIn } }, SETTLE_MS)
        if (late) return late
        throw await layoutChanged(page, 'x', 'session', 'open session: signed-in account menu')
      },
    )
    if (outcome === 'ok') {
      await session.readIdentity(cookies.userId)
      return { status: 'ok', session }
    }
    await session.close()
    if (outcome === 'expired')
      return {
        status: 'expired',
        signal: stopSignal('x', 'unauthenticated', '32', 'X sent the session to the login page.'),
      }
    if (outcome === 'locked')
      return {
        status: 'locked',
        signal: stopSignal('x', 'locked', '326', 'X sent the session to /account/access.'),
      }
    return { status: 'slow', message: 'X did not show the signed-in home page in time.' }
  } catch (error) {
    return session.closeAfterFailedOpen(error)
  }
}

function toBrowserCookie(c: XCookie) {
  return {
    name: c.name,
    value: c.value,
    domain: c.domain,
    path: c.path,
    httpOnly: c.httpOnly,
    secure: c.secure,
    ...(c.expires !== undefined ? { expires: c.expires } : {}),
    ...(c.sameSite ? { sameSite: c.sameSite } : {}),
  }
}

export class XSession extends PageSession<XFacts, XTimeouts> implements PlatformSession, XPageContext {
  readonly platform = 'x' as const
  readonly signedOut: (url: URL) => boolean
  readonly locked: (url: URL) => boolean
  /** The listing the page shows now, when a scrape left it open (scrolling reads its next page). */
  scrapeView: ScrapeView | undefined
  /** The passcode the session may enter (never guessed; cleared for good once X rejects it). */
  passcode: string | null
  passcodeRejected = false
  /** The thread a read left the page on for a send to type into (readThread with `stay`). */
  keptThread: string | undefined
  /** Time labels are dated on the runner's clock: this far ahead of the machine's (PlatformSession). */
  clockOffsetMs = 0

  constructor(context: AccountContext, baseUrl: string, facts: XFacts, options: XSessionOptions) {
    super(
      context,
      baseUrl,
      facts,
      { ...DEFAULT_X_TIMEOUTS, ...options.timeouts },
      options.typing ?? REALISTIC_TYPING,
      'X',
    )
    this.passcode = options.passcode ?? null
    this.signedOut = pathStartsWith(facts.urlSigns.signedOut)
    this.locked = pathStartsWith(facts.urlSigns.locked)
  }

  /** A listing left open by a scrape is no longer watched once the page moves on. */
  protected override leavingPage(): void {
    this.dropScrapeView()
    this.keptThread = undefined
  }

  /** Stops listening to a listing the page no longer shows. */
  dropScrapeView(): void {
    void this.scrapeView?.capture.stop().catch(() => undefined)
    this.scrapeView = undefined
  }

  /** Throws the stop signal when the page shows X signed us out or locked the account. */
  assertSignedIn(page: Page): void {
    const url = new URL(page.url())
    if (this.signedOut(url))
      throw new StopSignalError(
        stopSignal('x', 'unauthenticated', '32', 'X sent the session to the login page.'),
      )
    if (this.locked(url))
      throw new StopSignalError(stopSignal('x', 'locked', '326', 'X sent the session to /account/access.'))
  }

  /**
   * Who is signed in: the id from X's twid cookie, the name and @handle from the account menu
   * (cookie sessions get 404 from verify_credentials since July 2026; the page is what knows).
   */
  async readIdentity(userIdFromCookies: string | null): Promise<void> {
    const page = await this.page()
    const cookie = (await this.context.context.cookies()).find((c) => c.name === this.facts.userIdCookie.name)
    const fromCookie = cookie ? regexOf(this.facts.userIdCookie.pattern).exec(cookie.value)?.[1] : undefined
    const text = await textOf(page, this.facts.app.signedIn)
    const username = regexOf(this.facts.texts.handle).exec(text)?.[1] ?? ''
    this.user = {
      id: fromCookie ?? userIdFromCookies ?? '',
      username,
      name: text.replace(new RegExp(this.facts.texts.handle.source, 'g'), '').trim(),
    }
  }

  /** Opens an X Chat page (entering the stored passcode if X asks); throws when it cannot be read. */
  openChatPage(...opening: ChatPageArgs): Promise<ChatOpening> {
    return openChat(this, ...opening)
  }

  /** Opens X Chat and enters the passcode if X asks for it (the account.test check). */
  unlockChat(passcode?: string): Promise<UnlockResult> {
    return unlockChat(this, passcode)
  }

  sendDm(target: DmTarget, text: string): Promise<SendResult> {
    return sendXDm(this, target, text)
  }

  async readThread(threadId: string, options: { stay?: boolean } = {}): Promise<ThreadMessage[]> {
    const messages = await readXThread(this, threadId)
    if (options.stay) this.keptThread = this.path('thread', { id: threadId })
    else await this.leaveThread()
    return messages
  }

  resolveUncertain(sent: UnconfirmedSend): Promise<UncertainResolution> {
    return resolveXUncertain(this, sent)
  }

  readInbox(options?: { includeRequests?: boolean }): Promise<InboxConversation[]> {
    return readXInbox(this, options)
  }

  readReplies(since: Date): Promise<Reply[]> {
    return readXReplies(this, since)
  }

  scrape(request: ScrapeRequest): Promise<ScrapePage> {
    return scrapeX(this, request)
  }
}
