/// <reference lib="dom" />
// Navigation that survives client-side redirects. puppeteer's BiDi page.goto stops resolving
// after a page redirects itself while loading (an inline `location.replace`), which X Chat's
// passcode check does; so we mark the current document, assign location.href, and wait until a
// different document has parsed. Callers then wait for the outcome they expect.
import type { Page } from 'puppeteer-core'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export class NavigationTimeoutError extends Error {
  constructor(url: string, ms: number) {
    super(`Loading ${url} took longer than ${Math.round(ms / 1000)} s`)
    this.name = 'NavigationTimeoutError'
  }
}

export async function navigate(page: Page, url: string, timeoutMs: number): Promise<void> {
  const marker = `nav-${Date.now()}-${Math.random().toString(36).slice(2)}`
  const started = Date.now()
  await page
    .evaluate(
      (marker, url) => {
        ;(window as unknown as { __reachflowNav?: string }).__reachflowNav = marker
        location.href = url
      },
      marker,
      url,
    )
    .catch(() => undefined) // the navigation may tear the old document down before we hear back
  while (Date.now() - started < timeoutMs) {
    await sleep(50)
    const state = await page
      .evaluate(() => [
        (window as unknown as { __reachflowNav?: string }).__reachflowNav ?? '',
        document.readyState,
      ])
      .catch(() => undefined)
    if (state && state[0] !== marker && state[1] !== 'loading') return
  }
  throw new NavigationTimeoutError(url, timeoutMs)
}
