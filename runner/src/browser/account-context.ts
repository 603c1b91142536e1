// One account's browser context in a shared browser: its own cookies, storage, network stack and
// proxy (chromium-bidi makes each user context a Chromium browser context with its own proxy
// settings and its own proxy-login cache). Every page opened here answers the proxy's 407 with the
// account's login before its first request; a page the site opens itself (a popup) is answered
// from the context's login cache, filled by the page that loaded the site, and without it the proxy
// refuses it: it never goes out another way. A context whose browser died is `lost`: its cookies
// went with it, so its session must sign in again (SessionManager does).
import type { BrowserContext, Page } from 'puppeteer-core'
import type { ProxyConfig } from './proxy.ts'

export class BrowserGoneError extends Error {
  constructor() {
    super("The account's browser closed (it crashed or was killed); its session opens again on its next job.")
    this.name = 'BrowserGoneError'
  }
}

export class AccountContext {
  #lost = false
  #closed: Promise<void> | undefined

  constructor(
    readonly context: BrowserContext,
    readonly proxy: ProxyConfig | undefined,
    private readonly onClose: () => void = () => undefined,
  ) {}

  /** True once the browser holding this context is gone: every page it had is gone too. */
  get lost(): boolean {
    return this.#lost
  }

  /** Called by the pool when the browser disconnects. */
  markLost(): void {
    this.#lost = true
  }

  async newPage(): Promise<Page> {
    if (this.#lost) throw new BrowserGoneError()
    const page = await this.context.newPage()
    if (this.proxy?.username)
      await page.authenticate({ username: this.proxy.username, password: this.proxy.password ?? '' })
    return page
  }

  close(): Promise<void> {
    this.#closed ??= this.context
      .close()
      .catch(() => undefined) // already gone with its browser
      .finally(() => this.onClose())
    return this.#closed
  }
}
