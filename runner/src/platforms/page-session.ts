// What an X and an Instagram session share, so the two adapters differ only in their facts and the
// steps that truly differ (signing in, what a signed-out page looks like, the DM steps): the
// account's browser context, the one-operation-at-a-time page with a hard time limit, paths from
// the platform's facts, navigation under the navigation timeout, the cookies to save for the next
// run, a DM's lifecycle and the frame of its confirmation, and leaving a thread once done with it.
import { platformUrl } from '@reachflow/domain'
import type { Page } from 'puppeteer-core'
import { outOfTime } from '../browser/deadline.ts'
import { navigate } from '../browser/navigate.ts'
import { SessionPages } from '../browser/operations.ts'
import type { AccountContext, BrowserPool } from '../browser/pool.ts'
import { type TypingOptions, typingBudgetMs } from '../browser/typing.ts'
import { fillPath } from './facts.ts'
import { LayoutChangedError } from './layout.ts'
import { sendErrorOutcome } from './send-outcome.ts'
import {
  type DmTarget,
  newSendState,
  type SeenSignedIn,
  type SendResult,
  type SendState,
  type SessionCookie,
} from './types.ts'

export interface PageTimeouts {
  navigationMs: number
  /** One operation on the page: opening a thread, a read. */
  operationMs: number
  /** How long a message may take to show as sent after send was pressed. */
  confirmMs: number
}

/** Where a page session opens: the browser pool, the account's proxy, the site and its facts. */
export interface PageSessionPlace<Facts> {
  pool: BrowserPool
  proxy?: string | null
  /** The facts' baseUrl in production; the sandbox's URL in tests. */
  baseUrl?: string
  /** What the adapter knows about the site: its facts file, or a published pack of the same shape. */
  facts?: Facts
}

/** Makes a session on a new browser context of the account, on the site its facts (or a test) name. */
export async function newPageSession<Facts extends { baseUrl: string }, Session>(
  place: PageSessionPlace<Facts>,
  codeFacts: Facts,
  make: (context: AccountContext, baseUrl: string, facts: Facts) => Session,
): Promise<Session> {
  const facts = place.facts ?? codeFacts
  const baseUrl = (place.baseUrl ?? facts.baseUrl).replace(/\/$/, '')
  return make(await place.pool.newContext(place.proxy), baseUrl, facts)
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export abstract class PageSession<
  Facts extends { paths: Record<string, string> },
  Timeouts extends PageTimeouts,
> {
  readonly pages: SessionPages
  user = { id: '', username: '', name: '' }
  /** What the last full sign-in saw (set by whoever opened the session; see PlatformSession.seen). */
  seen: SeenSignedIn | null = null

  constructor(
    readonly context: AccountContext,
    readonly baseUrl: string,
    readonly facts: Facts,
    readonly timeouts: Timeouts,
    readonly typing: TypingOptions,
    /** The platform's name in the page errors' messages. */
    siteName: string,
  ) {
    this.pages = new SessionPages(context, siteName, timeouts.navigationMs)
  }

  /** Before the page navigates, is parked or closed: a session drops what watched the page it leaves. */
  protected leavingPage(): void {}

  /** Runs one operation on the session's page under a hard deadline; a hung page is replaced. */
  run<T>(operation: string, ms: number, work: (page: Page) => Promise<T>): Promise<T> {
    return this.pages.run(operation, ms, work)
  }

  page(): Promise<Page> {
    return this.pages.page()
  }

  park(): Promise<void> {
    this.leavingPage()
    return this.pages.park()
  }

  /**
   * An open conversation reads what arrives in it (X marks what a thread shows as read, Instagram's
   * thread page marks new items seen), so a page left on a thread would mark the lead's later reply
   * read before the customer saw it. After a DM that went out, or a read of a thread page, the page
   * is closed as between jobs (the next operation opens a fresh one); the inbox also treats the
   * minutes after a DM as the runner's (internal.inbox_runner_seen_at).
   */
  async leaveThread(): Promise<void> {
    await this.park().catch(() => undefined)
  }

  /** A path on the platform's site; one that would leave it (an operator's pack can hold any text) throws. */
  url(path: string): string {
    return platformUrl(this.baseUrl, path)
  }

  /** A path of the facts with its placeholders filled in. */
  path(name: keyof Facts['paths'] & string, values: Record<string, string> = {}): string {
    const template = this.facts.paths[name]
    if (template === undefined) throw new Error(`The ${this.pages.label} facts have no path "${name}".`)
    return fillPath(template, values)
  }

  async goto(page: Page, path: string): Promise<void> {
    this.leavingPage()
    await navigate(page, this.url(path), this.timeouts.navigationMs)
  }

  /**
   * One DM, the same lifecycle on every platform: an empty message is refused before a page is
   * touched; the platform's steps run as one operation whose deadline covers opening the thread,
   * typing like a person and confirming; how far they got (pressed send or not) decides what an
   * error amounts to (send-outcome.ts). A DM that went out leaves its thread (leaveThread).
   */
  async sendOnPage(
    target: DmTarget,
    text: string,
    steps: (page: Page, state: SendState) => Promise<SendResult>,
  ): Promise<SendResult> {
    if (!text.trim()) return { status: 'failed', threadId: null, reason: 'The message is empty.' }
    const state = newSendState(target.threadId ?? null)
    const budget = this.timeouts.operationMs + typingBudgetMs(text, this.typing) + this.timeouts.confirmMs
    let result: SendResult
    try {
      result = await this.run('send DM', budget, (page) => steps(page, state))
    } catch (error) {
      return withSeenBefore(sendErrorOutcome(error, state), state)
    }
    if (result.status !== 'sent') return withSeenBefore(result, state)
    await this.leaveThread()
    return state.seen ? { ...result, seen: state.seen } : result
  }

  /**
   * After send was pressed: polls the platform's check every pollMs for at most confirmMs, and
   * undefined when it gave no verdict in time. A page that left the thread may still have sent the
   * message: uncertain (onLeft first, for a platform that tells a signed-out page apart).
   */
  async confirmOnPage(
    page: Page,
    thread: { id: string; path: string },
    pollMs: number,
    check: () => Promise<SendResult | undefined>,
    onLeft: () => void = () => {},
  ): Promise<SendResult | undefined> {
    const deadline = Date.now() + this.timeouts.confirmMs
    while (Date.now() < deadline) {
      await sleep(pollMs)
      const path = new URL(page.url()).pathname
      if (path !== thread.path) {
        onLeft()
        return {
          status: 'uncertain',
          threadId: thread.id,
          reason: `The page left the thread after send (now ${path}).`,
        }
      }
      const verdict = await check()
      if (verdict) return verdict
    }
    return undefined
  }

  /** The session's cookies now (sites rotate some), to save encrypted and reuse next run. */
  async exportCookies(): Promise<SessionCookie[]> {
    return (await this.context.context.cookies()).map((c) => ({
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

  /**
   * Closes a session whose opening threw, and says why it did not open: a page out of time is slow.
   * A changed page is the site's doing, not the account's: it is thrown on for the job's
   * site-change handling.
   */
  async closeAfterFailedOpen(error: unknown): Promise<{ status: 'slow' | 'error'; message: string }> {
    await this.close()
    if (error instanceof LayoutChangedError) throw error
    return {
      status: outOfTime(error) ? 'slow' : 'error',
      message: error instanceof Error ? error.message : String(error),
    }
  }

  close(): Promise<void> {
    this.leavingPage()
    return this.pages.close()
  }
}

/** An uncertain send keeps the ids of the rows it saw before typing, for the later check of its thread. */
function withSeenBefore(result: SendResult, state: SendState): SendResult {
  return result.status === 'uncertain' && state.seen
    ? { ...result, seenBefore: state.seen.map((m) => m.id) }
    : result
}
