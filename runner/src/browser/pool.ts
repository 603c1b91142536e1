// Chromium for the adapters: Debian's chromium driven over WebDriver BiDi (chromium-bidi). Every
// account gets an isolated context with its own proxy (browser.createUserContext takes one per
// context), so a few browsers serve hundreds of proxied accounts: a browser takes contexts up to
// contextsPerBrowser, then the next one starts. A browser closes a short while after its last
// context; one that dies takes only its own contexts (marked lost; their sessions open again) and
// the next context goes to a live or new browser. Profiles are temporary directories removed on close.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import puppeteer, { type Browser } from 'puppeteer-core'
import { AccountContext } from './account-context.ts'
import { parseProxyUrl } from './proxy.ts'
import { ProxyForwarder } from './proxy-forwarder.ts'
import { pinnedProxyProblem } from './proxy-guard.ts'

export { AccountContext, BrowserGoneError } from './account-context.ts'

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

/**
 * Loopback is exempt from proxies by default; `<-loopback>` removes that exemption, so a proxied
 * account reaches nothing on the runner's own machine except through its proxy (the sandboxes
 * live there in tests, and go through the proxy like a real site).
 */
const PROXY_BYPASS_LIST = ['<-loopback>']

export interface PoolOptions {
  executablePath?: string
  headless?: boolean
  /** How long a browser may take to start. */
  launchTimeoutMs?: number
  /** Account contexts one browser holds before the next browser starts (docs/decisions.md). */
  contextsPerBrowser?: number
  /** How long a browser with no context left stays up for the next one. */
  idleBrowserMs?: number
}

export const CONTEXTS_PER_BROWSER = 100
export const IDLE_BROWSER_MS = 30_000

interface RunningBrowser {
  browser: Browser
  profileDir: string
}

/** One browser and what it holds; `users` counts its contexts and the ones being created. */
interface Slot {
  running: Promise<RunningBrowser>
  contexts: Set<AccountContext>
  users: number
  idleTimer?: ReturnType<typeof setTimeout>
}

export class BrowserPool {
  /** In launch order: new contexts fill the oldest browser with room, so the newest empty first. */
  #slots: Slot[] = []
  #closed = false

  constructor(readonly options: PoolOptions = {}) {}

  /** A fresh, isolated context for one account, behind its own proxy when it has one. */
  async newContext(proxyUrl?: string | null): Promise<AccountContext> {
    if (this.#closed) throw new Error('The browser pool is closed.')
    const proxy = proxyUrl ? parseProxyUrl(proxyUrl) : undefined
    const problem = proxy && pinnedProxyProblem(proxy.server)
    if (problem) throw new Error(problem)
    const slot = this.#slotWithRoom()
    slot.users++
    clearTimeout(slot.idleTimer)
    let forwarder: ProxyForwarder | undefined
    try {
      const { browser } = await slot.running
      // a login goes to the proxy through the forwarder, never through the browser
      if (proxy?.username !== undefined && /^https?:/.test(proxy.server))
        forwarder = await ProxyForwarder.start(proxy)
      const server = forwarder?.server ?? proxy?.server
      const context = await browser.createBrowserContext(
        server ? { proxyServer: server, proxyBypassList: PROXY_BYPASS_LIST } : {},
      )
      const closeForwarder = forwarder ? () => void forwarder?.close() : () => undefined
      const account = new AccountContext(context, proxy, () => {
        slot.contexts.delete(account)
        closeForwarder()
        this.#release(slot)
      })
      slot.contexts.add(account)
      // the browser died while the context was being made
      if (!this.#slots.includes(slot)) account.markLost()
      return account
    } catch (error) {
      await forwarder?.close()
      this.#release(slot)
      throw error
    }
  }

  /** How many browsers and account contexts are open (for heartbeats and benchmarks). */
  async stats(): Promise<{ browsers: number; contexts: number; pids: number[] }> {
    const live = (
      await Promise.all(
        this.#slots.map(async (slot) => ({ slot, running: await slot.running.catch(() => undefined) })),
      )
    ).filter(({ running }) => running?.browser.connected === true)
    return {
      browsers: live.length,
      contexts: live.reduce((sum, { slot }) => sum + slot.contexts.size, 0),
      pids: live
        .map(({ running }) => running?.browser.process()?.pid)
        .filter((pid): pid is number => pid !== undefined),
    }
  }

  async close(): Promise<void> {
    this.#closed = true
    const slots = this.#slots.splice(0)
    await Promise.all(
      slots.map(async (slot) => {
        clearTimeout(slot.idleTimer)
        await closeBrowser(await slot.running.catch(() => undefined))
      }),
    )
  }

  #slotWithRoom(): Slot {
    const limit = this.options.contextsPerBrowser ?? CONTEXTS_PER_BROWSER
    const found = this.#slots.find((s) => s.users < limit)
    if (found) return found
    const slot: Slot = { running: this.#launch(), contexts: new Set(), users: 0 }
    this.#slots.push(slot)
    slot.running.then(
      (running) =>
        running.browser.once('disconnected', () => {
          // a crash or a kill (our own closes remove the slot first): only this browser's
          // contexts are gone; the next newContext starts another browser if it needs one
          const crashed = this.#forget(slot)
          for (const context of slot.contexts) context.markLost()
          if (crashed) void closeBrowser(running)
        }),
      () => this.#forget(slot),
    )
    return slot
  }

  /** Removes the slot from the pool; false when it was already gone. */
  #forget(slot: Slot): boolean {
    clearTimeout(slot.idleTimer)
    const at = this.#slots.indexOf(slot)
    if (at >= 0) this.#slots.splice(at, 1)
    return at >= 0
  }

  #release(slot: Slot): void {
    slot.users--
    if (slot.users > 0 || !this.#slots.includes(slot)) return
    clearTimeout(slot.idleTimer)
    slot.idleTimer = setTimeout(() => {
      if (slot.users > 0 || !this.#forget(slot)) return
      void slot.running.then(closeBrowser, () => undefined)
    }, this.options.idleBrowserMs ?? IDLE_BROWSER_MS)
    slot.idleTimer.unref()
  }

  async #launch(): Promise<RunningBrowser> {
    const profileDir = await mkdtemp(join(tmpdir(), 'reachflow-chromium-'))
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
        args: BASE_ARGS,
        // no network events for every request of every account: a page that needs them subscribes
        // its own context (network-events.ts)
        networkEnabled: false,
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
