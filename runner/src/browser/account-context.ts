// One account's browser context in a shared browser: its own cookies, storage, network stack and
// proxy (chromium-bidi makes each user context a Chromium browser context with its own proxy
// settings). A proxy with a login is reached through the pool's loopback forwarder
// (proxy-forwarder.ts), which adds the login itself: no page, popup or site ever sees it. A
// context whose browser died is `lost`: its cookies went with it, so its session must sign in
// again (SessionManager does).
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
    return this.context.newPage()
  }

  close(): Promise<void> {
    this.#closed ??= this.context
      .close()
      .catch(() => undefined) // already gone with its browser
      .finally(() => this.onClose())
    return this.#closed
  }
}
