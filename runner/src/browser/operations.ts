// The page of one account session and how operations use it: one operation at a time, each
// under a hard deadline; a page that hung (deadline or a load that never finished) is replaced.
import type { Page } from 'puppeteer-core'
import { withDeadline } from './deadline.ts'
import { NavigationTimeoutError, navigate } from './navigate.ts'
import type { AccountContext } from './pool.ts'

export class SessionPages {
  #page: Page | undefined
  #stale: Page[] = []
  #busy = false

  constructor(
    readonly context: AccountContext,
    readonly label: string,
    readonly defaultTimeoutMs: number,
  ) {}

  async page(): Promise<Page> {
    if (this.#page && !this.#page.isClosed()) return this.#page
    // open the replacement before closing the hung page: Chromium cannot open a tab in a
    // context whose last tab was closed
    const page = await this.context.newPage()
    page.setDefaultTimeout(this.defaultTimeoutMs)
    this.#page = page
    for (const stale of this.#stale.splice(0)) void stale.close().catch(() => undefined)
    return page
  }

  /** Stops using the current page; the next operation gets a fresh one. */
  discard(): void {
    if (this.#page) this.#stale.push(this.#page)
    this.#page = undefined
  }

  /**
   * Leaves the page on about:blank between jobs. The session stays warm (context, cookies, signed
   * in) but the site's own scripts stop: a parked X Chat thread no longer polls every second, which
   * with 50 warm accounts on one runner was a steady load on the browser, the runner and the site.
   * Every operation starts by navigating, and in-page API calls go to the site first.
   */
  async park(ms = 5_000): Promise<void> {
    const page = this.#page
    if (this.#busy || !page || page.isClosed() || page.url() === 'about:blank') return
    this.#busy = true
    try {
      await navigate(page, 'about:blank', ms)
    } catch {
      this.discard() // a page that does not even leave is replaced on next use
    } finally {
      this.#busy = false
    }
  }

  async run<T>(operation: string, ms: number, work: (page: Page) => Promise<T>): Promise<T> {
    if (this.#busy)
      throw new Error(`${this.label} session busy: ${operation} must wait for the running operation`)
    this.#busy = true
    try {
      const page = await this.page()
      return await withDeadline(
        operation,
        ms,
        () => work(page),
        () => this.discard(),
      )
    } catch (error) {
      if (error instanceof NavigationTimeoutError) this.discard()
      throw error
    } finally {
      this.#busy = false
    }
  }

  async close(): Promise<void> {
    this.discard()
    await Promise.all(this.#stale.splice(0).map((p) => p.close().catch(() => undefined)))
    await this.context.close().catch(() => undefined) // already gone with its browser
  }
}
