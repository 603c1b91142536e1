// The page of one account session and how operations use it: one operation at a time, each
// under a hard deadline; a page that hung (deadline or a load that never finished) is replaced;
// between jobs the page is closed (park).
import type { Page } from 'puppeteer-core'
import { withDeadline } from './deadline.ts'
import { NavigationTimeoutError } from './navigate.ts'
import type { AccountContext } from './pool.ts'

export class SessionPages {
  #page: Page | undefined
  /** A page being opened (the browser may never answer: the operation's deadline discards it). */
  #opening: Promise<Page> | undefined
  #stale: Page[] = []
  #busy = false

  constructor(
    readonly context: AccountContext,
    readonly label: string,
    readonly defaultTimeoutMs: number,
  ) {}

  page(): Promise<Page> {
    if (this.#page && !this.#page.isClosed()) return Promise.resolve(this.#page)
    if (this.#opening) return this.#opening
    // a context with no page left (parked, or its page hung) opens a new one; hung pages close after
    const opening: Promise<Page> = this.context.newPage().then(
      (page) => {
        if (this.#opening !== opening) {
          // its operation gave up on it (discard): nobody waits for this page any more
          void page.close().catch(() => undefined)
          throw new Error(`${this.label}: a page opened after its operation gave up on it`)
        }
        this.#opening = undefined
        page.setDefaultTimeout(this.defaultTimeoutMs)
        this.#page = page
        for (const stale of this.#stale.splice(0)) void stale.close().catch(() => undefined)
        return page
      },
      (error: unknown) => {
        if (this.#opening === opening) this.#opening = undefined
        throw error
      },
    )
    this.#opening = opening
    return opening
  }

  /** Stops using the current page; the next operation gets a fresh one. */
  discard(): void {
    if (this.#page) this.#stale.push(this.#page)
    this.#page = undefined
    this.#opening = undefined
  }

  /**
   * Closes the page between jobs. The session stays warm (its context keeps the cookies and local
   * storage, so it is still signed in and X Chat still holds its keys) but nothing of the site runs:
   * no thread polling every second, and no renderer process either. A page parked on about:blank
   * kept its renderer (~100 MB each): with 50 warm accounts and 12 sending, 38 idle renderers were
   * most of the runner's memory (docs/benchmarks.md). The next operation opens a fresh page.
   */
  async park(ms = 5_000): Promise<void> {
    const page = this.#page
    if (this.#busy || !page) return
    this.#page = undefined
    if (page.isClosed()) return
    this.#busy = true
    try {
      const closed = await bounded(
        page.close().then(() => true),
        ms,
      )
      if (!closed) this.#stale.push(page) // closed with the next stale pages, or with the context
    } finally {
      this.#busy = false
    }
  }

  async run<T>(operation: string, ms: number, work: (page: Page) => Promise<T>): Promise<T> {
    if (this.#busy)
      throw new Error(`${this.label} session busy: ${operation} must wait for the running operation`)
    this.#busy = true
    try {
      // opening the page counts against the deadline too: a browser that never answers it must not
      // hold the session busy for good
      return await withDeadline(
        operation,
        ms,
        async () => work(await this.page()),
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

/** The promise's value, or undefined if it fails or takes longer than ms. */
async function bounded<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms)
  })
  try {
    return await Promise.race([promise.catch(() => undefined), timeout])
  } finally {
    clearTimeout(timer)
  }
}
