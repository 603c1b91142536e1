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

/** The promise's value, or undefined if it fails or takes longer than ms. */
async function bounded<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let clear = () => {}
  const timeout = new Promise<undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms)
    clear = () => clearTimeout(timer)
  })
  try {
    return await Promise.race([promise.catch(() => undefined), timeout])
  } finally {
    clear()
  }
}

export async function navigate(page: Page, url: string, timeoutMs: number): Promise<void> {
  const marker = `nav-${Date.now()}-${Math.random().toString(36).slice(2)}`
  const started = Date.now()
  const left = () => Math.max(100, timeoutMs - (Date.now() - started))
  // the navigation may tear the old document down before we hear back
  await bounded(
    page.evaluate(
      (marker, url) => {
        ;(window as unknown as { __reachflowNav?: string }).__reachflowNav = marker
        location.href = url
      },
      marker,
      url,
    ),
    Math.min(5_000, left()),
  )
  while (Date.now() - started < timeoutMs) {
    await sleep(100)
    // while a navigation is pending the browser may hold our script until the new document
    // exists; with a server that never answers that is forever, so each look is bounded
    const state = await bounded(
      page.evaluate(() => [
        (window as unknown as { __reachflowNav?: string }).__reachflowNav ?? '',
        document.readyState,
      ]),
      Math.min(2_000, left()),
    )
    if (state && state[0] !== marker && state[1] !== 'loading') return
  }
  throw new NavigationTimeoutError(url, timeoutMs)
}
