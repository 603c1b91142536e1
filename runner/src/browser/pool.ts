// Chromium for the adapters: Debian's chromium driven over WebDriver BiDi (chromium-bidi).
// One browser per distinct proxy (Chromium takes its proxy per process) holding one isolated
// context per account; a browser that dies is relaunched on next use; profiles are temporary
// directories removed on close.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core'
import { type ProxyConfig, parseProxyUrl } from './proxy.ts'
import { pinnedProxyProblem } from './proxy-guard.ts'

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

const BASE_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  '--mute-audio',
  '--window-size=1280,900',
  // Chromium 156 gives every window, one per account context, a WebUI omnibox popup with a renderer
  // process of its own, preloaded though headless never shows it: a second renderer per account.
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
]

export interface PoolOptions {
  executablePath?: string
  headless?: boolean
  /** How long a browser may take to start. */
  launchTimeoutMs?: number
}

interface RunningBrowser {
  browser: Browser
  profileDir: string
}

/** One account's browser context; pages it opens answer the proxy's credentials. */
export class AccountContext {
  constructor(
    readonly context: BrowserContext,
    readonly proxy: ProxyConfig | undefined,
  ) {}

  async newPage(): Promise<Page> {
    const page = await this.context.newPage()
    if (this.proxy?.username)
      await page.authenticate({ username: this.proxy.username, password: this.proxy.password ?? '' })
    return page
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined)
  }
}

export class BrowserPool {
  readonly #browsers = new Map<string, Promise<RunningBrowser>>()
  #closed = false

  constructor(readonly options: PoolOptions = {}) {}

  /** A fresh, isolated context for one account, in the browser of its proxy. */
  async newContext(proxyUrl?: string | null): Promise<AccountContext> {
    if (this.#closed) throw new Error('The browser pool is closed.')
    const proxy = proxyUrl ? parseProxyUrl(proxyUrl) : undefined
    const problem = proxy && pinnedProxyProblem(proxy.server)
    if (problem) throw new Error(problem)
    const { browser } = await this.#browserFor(proxy)
    return new AccountContext(await browser.createBrowserContext(), proxy)
  }

  /** How many browsers and account contexts are open (for heartbeats and benchmarks). */
  async stats(): Promise<{ browsers: number; contexts: number; pids: number[] }> {
    const running = await Promise.all([...this.#browsers.values()].map((p) => p.catch(() => undefined)))
    const live = running.filter((r): r is RunningBrowser => r?.browser.connected === true)
    return {
      browsers: live.length,
      contexts: live.reduce((sum, r) => sum + r.browser.browserContexts().length - 1, 0),
      pids: live.map((r) => r.browser.process()?.pid).filter((pid): pid is number => pid !== undefined),
    }
  }

  async close(): Promise<void> {
    this.#closed = true
    const running = [...this.#browsers.values()]
    this.#browsers.clear()
    await Promise.all(running.map(async (p) => closeBrowser(await p.catch(() => undefined))))
  }

  #browserFor(proxy: ProxyConfig | undefined): Promise<RunningBrowser> {
    const key = proxy?.server ?? 'direct'
    let running = this.#browsers.get(key)
    if (!running) {
      running = this.#launch(proxy)
      this.#browsers.set(key, running)
      running.then(
        ({ browser }) =>
          browser.once('disconnected', () => {
            if (this.#browsers.get(key) === running) this.#browsers.delete(key)
          }),
        () => this.#browsers.delete(key),
      )
    }
    return running
  }

  async #launch(proxy: ProxyConfig | undefined): Promise<RunningBrowser> {
    const profileDir = await mkdtemp(join(tmpdir(), 'reachflow-chromium-'))
    const args = [...BASE_ARGS]
    // loopback is normally exempt from proxies; the sandboxes live there, so route it too
    if (proxy) args.push(`--proxy-server=${proxy.server}`, '--proxy-bypass-list=<-loopback>')
    try {
      const browser = await puppeteer.launch({
        executablePath: this.options.executablePath ?? CHROMIUM_PATH,
        protocol: 'webDriverBiDi',
        // over a pipe Chromium exits with the runner, even one killed with SIGKILL: no orphaned browsers
        pipe: true,
        // the runner's own shutdown closes browsers after the DM in hand is confirmed; puppeteer's
        // default would kill them at the signal, mid-send
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        headless: this.options.headless ?? true,
        userDataDir: profileDir,
        args,
        timeout: this.options.launchTimeoutMs ?? 60_000,
        defaultViewport: { width: 1280, height: 900 },
      })
      return { browser, profileDir }
    } catch (error) {
      await removeProfile(profileDir)
      throw error
    }
  }
}

/**
 * Ends a browser by its process: SIGTERM (Chromium shuts down cleanly), SIGKILL if it lingers.
 * Not through puppeteer's browser.close(): over BiDi that is chromium-bidi's `browser.close`,
 * which sends CDP Browser.close from a timer with nobody listening for the answer; when Chromium
 * exits before answering (a race), that promise rejects with TargetCloseError as an unhandled
 * rejection (seen in a test run). Here no protocol command is left waiting.
 */
async function closeBrowser(running: RunningBrowser | undefined): Promise<void> {
  if (!running) return
  const child = running.browser.process()
  try {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<boolean>((resolve) => child.once('exit', () => resolve(true)))
      child.kill('SIGTERM')
      const timer = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000).unref())
      if (!(await Promise.race([exited, timer]))) {
        child.kill('SIGKILL')
        await exited
      }
    }
    await running.browser.disconnect().catch(() => undefined) // already closed with the pipe
  } finally {
    await removeProfile(running.profileDir)
  }
}

/**
 * Chromium's helpers (crashpad, utility processes) can still be writing into the profile for a
 * moment after the browser process exits, so a single rmdir may meet ENOTEMPTY (seen in CI):
 * retry, and a profile that still will not go is a stray temp directory, never a failed close.
 */
async function removeProfile(profileDir: string): Promise<void> {
  await rm(profileDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).catch(
    (error: unknown) => console.warn(`could not remove browser profile ${profileDir}:`, error),
  )
}
