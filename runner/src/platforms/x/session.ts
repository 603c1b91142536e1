/// <reference lib="dom" />
// An X session in the browser: cookies set in the account's own context (behind its proxy),
// signed-in check on /home, X Chat passcode unlock (entered once, never guessed), and the
// one-operation-at-a-time page with a hard time limit that the send/read/scrape modules use.
import type { Page } from 'puppeteer-core'
import { navigate } from '../../browser/navigate.ts'
import { SessionPages } from '../../browser/operations.ts'
import { pathStartsWith, textOf, waitForFirst } from '../../browser/page-wait.ts'
import type { AccountContext, BrowserPool } from '../../browser/pool.ts'
import { REALISTIC_TYPING, type TypingOptions, typeLikeHuman } from '../../browser/typing.ts'
import {
  type DmTarget,
  type InboxConversation,
  type PlatformSession,
  type Reply,
  type ScrapePage,
  type ScrapeRequest,
  type SendResult,
  type StopSignal,
  StopSignalError,
  stopSignal,
  type ThreadMessage,
  type UncertainResolution,
} from '../types.ts'
import { cookiesForSite, type ParsedXCookies, type XCookie } from './cookies.ts'
import { readXInbox, readXReplies, readXThread, resolveXUncertain } from './inbox.ts'
import { fetchInPage } from './page-api.ts'
import { scrapeX } from './scrape.ts'
import { X_API, X_BASE_URL, X_PASSCODE_TEXTS, X_PATHS, X_SELECTORS, X_URL_SIGNS } from './selectors.ts'
import { sendXDm } from './send.ts'

export interface XTimeouts {
  /** One page load. */
  navigationMs: number
  /** Hard limit of one operation (typing time is added for sends). */
  operationMs: number
  /** How long a send may take to reach sent/delivered before it is uncertain. */
  confirmMs: number
}

export const DEFAULT_X_TIMEOUTS: XTimeouts = { navigationMs: 30_000, operationMs: 90_000, confirmMs: 20_000 }

export interface XSessionOptions {
  pool: BrowserPool
  /** https://x.com in production; the sandbox's URL in tests. */
  baseUrl?: string
  proxy?: string | null
  /** The account's X Chat passcode (4 digits), if it has one. */
  passcode?: string | null
  typing?: TypingOptions
  timeouts?: Partial<XTimeouts>
}

export type OpenXSessionResult =
  | { status: 'ok'; session: XSession }
  | { status: 'expired' | 'locked'; signal: StopSignal }
  | { status: 'error'; message: string }

export type UnlockResult =
  | { status: 'unlocked' | 'not_needed' }
  | { status: 'wrong_passcode' | 'chat_locked' | 'passcode_required'; signal: StopSignal }

const signedOut = pathStartsWith(X_URL_SIGNS.signedOut)
const locked = pathStartsWith(X_URL_SIGNS.locked)

/** Opens the account's context with its cookies and checks /home shows the signed-in account. */
export async function openXSession(
  cookies: ParsedXCookies,
  options: XSessionOptions,
): Promise<OpenXSessionResult> {
  const baseUrl = (options.baseUrl ?? X_BASE_URL).replace(/\/$/, '')
  const context = await options.pool.newContext(options.proxy)
  const session = new XSession(context, baseUrl, options, cookies.userId)
  try {
    await context.context.setCookie(...cookiesForSite(cookies.cookies, baseUrl).map(toBrowserCookie))
    const outcome = await session.run('open session', session.timeouts.navigationMs + 5_000, async (page) => {
      await session.goto(page, X_PATHS.home)
      return waitForFirst(
        page,
        { ok: { selector: X_SELECTORS.signedIn }, expired: { url: signedOut }, locked: { url: locked } },
        session.timeouts.navigationMs,
      )
    })
    if (outcome === 'ok') {
      await session.readIdentity()
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
    return { status: 'error', message: 'X did not show the signed-in home page in time.' }
  } catch (error) {
    await session.close()
    return { status: 'error', message: error instanceof Error ? error.message : String(error) }
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

export class XSession implements PlatformSession {
  readonly platform = 'x' as const
  readonly timeouts: XTimeouts
  readonly typing: TypingOptions
  user: { id: string; username: string; name: string }
  readonly pages: SessionPages
  #passcode: string | null
  #passcodeRejected = false

  constructor(
    readonly context: AccountContext,
    readonly baseUrl: string,
    options: XSessionOptions,
    userId: string | null,
  ) {
    this.timeouts = { ...DEFAULT_X_TIMEOUTS, ...options.timeouts }
    this.pages = new SessionPages(context, 'X', this.timeouts.navigationMs)
    this.typing = options.typing ?? REALISTIC_TYPING
    this.#passcode = options.passcode ?? null
    this.user = { id: userId ?? '', username: '', name: '' }
  }

  /** Runs one operation on the session's page under a hard deadline; a hung page is replaced. */
  run<T>(operation: string, ms: number, work: (page: Page) => Promise<T>): Promise<T> {
    return this.pages.run(operation, ms, work)
  }

  page(): Promise<Page> {
    return this.pages.page()
  }

  park(): Promise<void> {
    return this.pages.park()
  }

  url(path: string): string {
    return `${this.baseUrl}${path}`
  }

  async goto(page: Page, path: string): Promise<void> {
    await navigate(page, this.url(path), this.timeouts.navigationMs)
  }

  /** Throws the stop signal when the page shows X signed us out or locked the account. */
  assertSignedIn(page: Page): void {
    const url = new URL(page.url())
    if (signedOut(url))
      throw new StopSignalError(
        stopSignal('x', 'unauthenticated', '32', 'X sent the session to the login page.'),
      )
    if (locked(url))
      throw new StopSignalError(stopSignal('x', 'locked', '326', 'X sent the session to /account/access.'))
  }

  /** Who is signed in: verify_credentials from the page, else the side navigation's text. */
  async readIdentity(): Promise<void> {
    const page = await this.page()
    const answer = await fetchInPage(page, X_API.verifyCredentials).catch(() => undefined)
    const user =
      answer?.status === 200
        ? (answer.body as { id_str?: string; screen_name?: string; name?: string })
        : undefined
    if (user?.id_str && user.screen_name) {
      this.user = { id: user.id_str, username: user.screen_name, name: user.name ?? '' }
      return
    }
    const text = await textOf(page, X_SELECTORS.signedIn)
    const username = /@([A-Za-z0-9_]{1,15})/.exec(text)?.[1] ?? ''
    this.user = { ...this.user, username, name: text.replace(/@\S+/, '').trim() }
  }

  /**
   * Opens an X Chat page; if X asks for the passcode, enters the stored one (once per session,
   * never again after a rejection) and returns to the page. Throws a chat_locked stop signal
   * when X Chat cannot be opened.
   */
  async openChatPage(page: Page, path: string, readySelector: string): Promise<void> {
    await this.goto(page, path)
    for (let attempt = 0; attempt < 2; attempt++) {
      const outcome = await waitForFirst(
        page,
        {
          ready: { selector: readySelector },
          missing: { selector: X_SELECTORS.emptyState },
          pin: { selector: X_SELECTORS.pinContainer },
          chatLocked: { text: X_PASSCODE_TEXTS.locked, within: X_SELECTORS.pinError },
          signedOut: { url: signedOut },
          locked: { url: locked },
        },
        this.timeouts.navigationMs,
      )
      if (outcome === 'ready' || outcome === 'missing') return
      if (outcome === 'signedOut' || outcome === 'locked') this.assertSignedIn(page)
      if (outcome === 'pin') {
        const result = await this.#enterPasscode(page)
        if ('signal' in result) throw new StopSignalError(result.signal)
        await this.goto(page, path)
        continue
      }
      if (outcome === 'chatLocked')
        throw new StopSignalError(chatSignal('X Chat is locked after too many passcode attempts.'))
      throw new Error(`X Chat page ${path} did not load in time`)
    }
    throw new Error(`X Chat kept asking for the passcode on ${path}`)
  }

  /** Opens X Chat and enters the passcode if X asks for it (the account.test check). */
  async unlockChat(passcode?: string): Promise<UnlockResult> {
    if (passcode !== undefined) {
      this.#passcode = passcode
      this.#passcodeRejected = false
    }
    return this.run('unlock chat', this.timeouts.operationMs, async (page) => {
      await this.goto(page, X_PATHS.messages)
      const outcome = await waitForFirst(
        page,
        {
          ready: { selector: X_SELECTORS.inboxList },
          pin: { selector: X_SELECTORS.pinContainer },
          chatLocked: { text: X_PASSCODE_TEXTS.locked, within: X_SELECTORS.pinError },
          signedOut: { url: signedOut },
          locked: { url: locked },
        },
        this.timeouts.navigationMs,
      )
      if (outcome === 'ready') return { status: 'not_needed' } as const
      if (outcome === 'signedOut' || outcome === 'locked') this.assertSignedIn(page)
      if (outcome === 'chatLocked')
        return {
          status: 'chat_locked',
          signal: chatSignal('X Chat is locked after too many passcode attempts.'),
        } as const
      if (outcome === 'pin') return this.#enterPasscode(page)
      throw new Error('X Chat did not load in time')
    })
  }

  async #enterPasscode(page: Page): Promise<UnlockResult> {
    if (!this.#passcode || this.#passcodeRejected)
      return {
        status: 'passcode_required',
        signal: chatSignal(
          this.#passcodeRejected
            ? 'The stored X Chat passcode was rejected.'
            : 'X Chat asks for a passcode and none is stored.',
        ),
      }
    if (!/^\d{4}$/.test(this.#passcode))
      return {
        status: 'passcode_required',
        signal: chatSignal('The stored X Chat passcode is not 4 digits.'),
      }
    const inputs = await page.$$(X_SELECTORS.pinInputs)
    if (inputs.length !== 4) throw new Error(`X Chat passcode screen has ${inputs.length} inputs, expected 4`)
    for (const [i, input] of inputs.entries()) {
      await typeLikeHuman(page, input, this.#passcode.charAt(i), this.typing)
    }
    const outcome = await waitForFirst(
      page,
      {
        unlocked: { url: (url) => !url.pathname.startsWith(X_PATHS.chatPin) },
        incorrect: { text: X_PASSCODE_TEXTS.incorrect, within: X_SELECTORS.pinError },
        chatLocked: { text: X_PASSCODE_TEXTS.locked, within: X_SELECTORS.pinError },
      },
      this.timeouts.navigationMs,
    )
    if (outcome === 'unlocked') return { status: 'unlocked' }
    this.#passcodeRejected = true // never guess: a wrong passcode is not tried again by itself
    if (outcome === 'incorrect')
      return { status: 'wrong_passcode', signal: chatSignal('X Chat says the stored passcode is incorrect.') }
    if (outcome === 'chatLocked')
      return {
        status: 'chat_locked',
        signal: chatSignal('X Chat is locked after too many passcode attempts.'),
      }
    throw new Error('X Chat did not answer the passcode in time')
  }

  async sendDm(target: DmTarget, text: string): Promise<SendResult> {
    const result = await sendXDm(this, target, text)
    if (result.status === 'sent') await this.leaveConversation()
    return result
  }

  async readThread(threadId: string): Promise<ThreadMessage[]> {
    const messages = await readXThread(this, threadId)
    await this.leaveConversation()
    return messages
  }

  /**
   * An open conversation reads every message that arrives in it (X marks what it shows as read), so
   * a page left on a thread would mark the lead's later reply read before the customer saw it. After
   * an operation that went well the page is closed as between jobs (the next one opens a fresh page);
   * the inbox also treats the minutes after a DM as the runner's (internal.inbox_runner_seen_at).
   */
  private async leaveConversation(): Promise<void> {
    await this.pages.park().catch(() => undefined)
  }

  resolveUncertain(sent: { threadId: string; text: string; since: Date }): Promise<UncertainResolution> {
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

  /** The session's cookies now (X may rotate ct0), to save encrypted for the next run. */
  async exportCookies(): Promise<XCookie[]> {
    const cookies = await this.context.context.cookies()
    return cookies.map((c) => ({
      name: c.name,
      value: c.value,
      domain: c.domain,
      path: c.path,
      ...(c.expires > 0 ? { expires: Math.floor(c.expires) } : {}),
      httpOnly: c.httpOnly ?? false, // optional in puppeteer 25's Cookie type; BiDi always reports it
      secure: c.secure,
      ...(c.sameSite && c.sameSite !== 'Default' ? { sameSite: c.sameSite } : {}), // 'Default': none set
    }))
  }

  close(): Promise<void> {
    return this.pages.close()
  }
}

function chatSignal(message: string): StopSignal {
  return stopSignal('x', 'chat_locked', 'xchat_passcode', message)
}
