// What an Instagram operation (send, confirm, inbox, scrape) sees of its session: the page it runs
// on, the facts and time limits, the sign-in checks and the runner's clock. The operations take this
// interface and the session only composes them, so no operation imports the session.
import type { Page } from 'puppeteer-core'
import type { PageSession, PageTimeouts } from '../page-session.ts'
import type { InstagramFacts } from './facts.ts'

export type IgTimeouts = PageTimeouts

export interface IgPageContext extends PageSession<InstagramFacts, IgTimeouts> {
  readonly platform: 'instagram'
  /** The runner's clock (ms), for TOTP codes under a test clock. */
  readonly now: () => number
  readonly inLogin: (url: URL) => boolean
  readonly inChallenge: (url: URL) => boolean
  /** Throws the stop signal when Instagram sent the page to login or a checkpoint. */
  assertSignedIn(page: Page): void
}
