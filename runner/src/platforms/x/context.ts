// What an X operation (chat page, send, read, scrape) sees of its session: the page it runs on, the
// facts and time limits, the sign-in checks and the state kept between operations. The operations
// take this interface and the session only composes them, so no operation imports the session.
import type { Page } from 'puppeteer-core'
import type { PageSession, PageTimeouts } from '../page-session.ts'
import type { XFacts } from './facts.ts'
import type { ListingCapture } from './listing-capture.ts'

export type XTimeouts = PageTimeouts

/** How long a page that finished rendering may still take to show what the adapter waits for. */
export const SETTLE_MS = 2_500

/** What an opened chat page showed: its ready marker, or X saying the conversation does not exist. */
export type ChatOpening = 'ready' | 'missing'

/** Which chat page to open, what marks it ready, and for which action and step (for a changed page). */
export type ChatPageArgs = [
  page: Page,
  path: string,
  ready: string,
  action: 'send' | 'inbox',
  step: string,
  options?: { reuse?: boolean },
]

/** The listing a page shows and how far the adapter has read it (the page stays open between pages). */
export interface ScrapeView {
  key: string
  capture: ListingCapture
  /** The Bottom cursor of the last page read: the page loads from it when scrolled to the end. */
  lastBottom: string | null
}

export interface XPageContext extends PageSession<XFacts, XTimeouts> {
  readonly platform: 'x'
  readonly signedOut: (url: URL) => boolean
  readonly locked: (url: URL) => boolean
  /** The listing the page shows now, when a scrape left it open (scrolling reads its next page). */
  scrapeView: ScrapeView | undefined
  /** The passcode the session may enter (never guessed; cleared for good once X rejects it). */
  passcode: string | null
  passcodeRejected: boolean
  /** The thread a read left the page on for a send to type into (readThread with `stay`). */
  keptThread: string | undefined
  /** Time labels are dated on the runner's clock: this far ahead of the machine's. */
  clockOffsetMs: number
  /** Throws the stop signal when the page shows X signed us out or locked the account. */
  assertSignedIn(page: Page): void
  /** Opens an X Chat page (entering the stored passcode if X asks); throws when it cannot be read. */
  openChatPage(...opening: ChatPageArgs): Promise<ChatOpening>
}
